import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { callChannels } from '../../shared/contract/index';
import type { BridgeHandlers } from '../core/bridge/handlers';
import { isTrustedSender, registerBridge, type IpcMainLike } from './ipc-registrar';

type Listener = Parameters<IpcMainLike['handle']>[1];

function fakeIpc() {
  const handlers = new Map<string, Listener>();
  const ipc: IpcMainLike = {
    handle: (channel, listener) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, listener);
    },
    removeHandler: (channel) => handlers.delete(channel),
  };
  return { ipc, handlers };
}

function spyHandlers() {
  const spies: Record<string, ReturnType<typeof vi.fn>> = {};
  for (const channel of callChannels)
    spies[channel] = vi.fn(async () => ({
      text: 'x',
      at: 1,
      version: '1',
      shape: 'web',
      dataDir: '/d',
      workspaceDir: '/w',
    }));
  return { handlers: spies as unknown as BridgeHandlers, spies };
}

const top = { url: 'app://skald/index.html', parent: null };

describe('ipc registrar', () => {
  it('registers exactly one handler per contract channel and removes them all on dispose (I1)', () => {
    const { ipc, handlers } = fakeIpc();
    const dispose = registerBridge(ipc, spyHandlers().handlers, () => {});
    expect([...handlers.keys()].sort()).toEqual([...callChannels].sort());
    dispose();
    expect(handlers.size).toBe(0);
  });

  it('throws at startup when a handler is missing or extra (I1)', () => {
    const { handlers } = spyHandlers();
    const missing = { ...handlers } as Record<string, unknown>;
    delete missing['app:ping'];
    expect(() => registerBridge(fakeIpc().ipc, missing as BridgeHandlers, () => {})).toThrow(/missing \[app:ping\]/);
    const extra = { ...handlers, 'app:evil': async () => null } as unknown as BridgeHandlers;
    expect(() => registerBridge(fakeIpc().ipc, extra, () => {})).toThrow(/extra \[app:evil\]/);
  });

  it('refuses sub-frames, other origins, missing frames; the handler never runs (I2)', async () => {
    const { ipc, handlers } = fakeIpc();
    const { handlers: h, spies } = spyHandlers();
    const log = vi.fn();
    registerBridge(ipc, h, log);
    const ping = handlers.get('app:ping')!;
    const frames = [
      { url: 'app://skald/index.html', parent: {} },
      { url: 'app://preview/index.html', parent: null },
      { url: 'https://evil.example/', parent: null },
      { url: 'file:///etc/passwd', parent: null },
      { url: 'not a url', parent: null },
      null,
    ];
    for (const senderFrame of frames) {
      const outcome = (await ping({ senderFrame }, { text: 'x' })) as { ok: boolean; error?: { code: string } };
      expect(outcome).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(spies['app:ping']).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledTimes(frames.length);
    const ok = await ping({ senderFrame: top }, { text: 'x' });
    expect(ok).toMatchObject({ ok: true });
    expect(spies['app:ping']).toHaveBeenCalledTimes(1);
  });

  it('schema-invalid payloads never reach the handler (I3, property)', async () => {
    const { ipc, handlers } = fakeIpc();
    const { handlers: h, spies } = spyHandlers();
    registerBridge(ipc, h, () => {});
    const ping = handlers.get('app:ping')!;
    const bad = fc.oneof(
      fc
        .anything()
        .filter((v) => !(typeof v === 'object' && v !== null && typeof (v as { text?: unknown }).text === 'string')),
      fc.record({ text: fc.string(), extra: fc.anything() }),
      fc.constant(JSON.parse('{"text":"a","__proto__":{"polluted":true}}')),
      fc.record({ text: fc.string({ minLength: 1001, maxLength: 1100 }) }),
    );
    await fc.assert(
      fc.asyncProperty(bad, async (payload) => {
        const outcome = (await ping({ senderFrame: top }, payload)) as { ok: boolean; error?: { code: string } };
        expect(outcome.ok).toBe(false);
        expect(outcome.error?.code).toBe('bad_request');
      }),
      { numRuns: 200 },
    );
    expect(spies['app:ping']).not.toHaveBeenCalled();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('errors crossing the bridge carry a code and a message only (I4)', async () => {
    const { ipc, handlers } = fakeIpc();
    const { handlers: h, spies } = spyHandlers();
    spies['app:ping']!.mockRejectedValueOnce(new Error('boom at /home/me/secret/path with key sk-123'));
    registerBridge(ipc, h, () => {});
    const outcome = (await handlers.get('app:ping')!({ senderFrame: top }, { text: 'x' })) as {
      ok: false;
      error: object;
    };
    expect(Object.keys(outcome.error).sort()).toEqual(['code', 'message']);
    expect(JSON.stringify(outcome)).not.toMatch(/home|sk-123|at .*:\d+/);
  });

  it('isTrustedSender accepts only our top frame', () => {
    expect(isTrustedSender(top)).toBe(true);
    expect(isTrustedSender({ url: 'app://skald.evil/', parent: null })).toBe(false);
  });
});

/**
 * The renderer's boundary: events are parsed with the contract before a store sees them, and on desktop a failed
 * call keeps its error code: the preload answers outcomes as data, unwrapped here (the whole IPC path, through the
 * real registrar: test/renderer/desktop-bridge.test.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import type { PreloadApi } from '../../../shared/contract/api';
import { BridgeError } from '../../../shared/contract/define';
import { fromPreload, parseEvent } from './boundary';

describe('events at the boundary', () => {
  it('a well-formed event passes; a malformed one is dropped and logged', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ok = { type: 'open_file', path: '/w/a.md', tool_call_id: null };
    expect(parseEvent('viewer', ok)).toEqual(ok);
    expect(parseEvent('viewer', { type: 'open_file', path: 42 })).toBeUndefined();
    expect(parseEvent('chat', { type: 'no_such_event', session_id: 1 })).toBeUndefined();
    expect(error).toHaveBeenCalledTimes(2);
    error.mockRestore();
  });
});

describe('the desktop path (preload → renderer)', () => {
  /** What the preload exposes, reduced to the members these tests use: each call answers an outcome, as data. */
  function fakePreload(listeners: ((payload: unknown) => void)[]): PreloadApi {
    return {
      chat: { history: async () => ({ ok: false, error: { code: 'not_found', message: 'No session 7.' } }) },
      app: { info: async () => ({ ok: true, result: { version: '1' } }), ping: async () => ({ surprise: true }) },
      on: { viewer: (l: (p: unknown) => void) => (listeners.push(l), () => {}) },
    } as unknown as PreloadApi;
  }

  it('a failed call rejects with a BridgeError that keeps its code; a result passes', async () => {
    const api = fromPreload(fakePreload([]));
    const failure = await api.chat.history({ sessionId: 7 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BridgeError);
    expect(failure).toMatchObject({ code: 'not_found', message: 'No session 7.' });
    expect(await api.app.info({})).toEqual({ version: '1' });
  });

  it('an answer that is not an outcome is refused, not passed on', async () => {
    const api = fromPreload(fakePreload([]));
    await expect(api.app.ping({ text: 'x' })).rejects.toMatchObject({ code: 'bad_response' });
  });

  it('its events are parsed too', () => {
    const listeners: ((payload: unknown) => void)[] = [];
    const api = fromPreload(fakePreload(listeners));
    const seen: unknown[] = [];
    api.on.viewer((e) => seen.push(e));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    listeners[0]!({ type: 'open_file', path: '/w/a.md', tool_call_id: 'tc_1' });
    listeners[0]!({ type: 'open_file' });
    error.mockRestore();
    expect(seen).toEqual([{ type: 'open_file', path: '/w/a.md', tool_call_id: 'tc_1' }]);
  });
});

describe('the web wire', () => {
  it('parses every frame the server sends', async () => {
    const { ServerFrameSchema } = await import('../../../shared/web-wire');
    expect(ServerFrameSchema.parse({ type: 'result', id: 1, ok: true, result: { a: 1 } })).toMatchObject({ ok: true });
    expect(
      ServerFrameSchema.parse({ type: 'result', id: null, ok: false, error: { code: 'bad_frame', message: 'x' } }),
    ).toMatchObject({ ok: false });
    expect(ServerFrameSchema.parse({ type: 'event', family: 'chat', payload: {} })).toMatchObject({ type: 'event' });
    expect(ServerFrameSchema.safeParse({ type: 'result', id: 1, ok: false }).success).toBe(false);
  });
});

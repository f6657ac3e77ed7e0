/**
 * The renderer's boundary: events are parsed with the contract before a store sees them, and on desktop a failed
 * call keeps its error code although Electron's contextBridge passes only the message.
 */
import { describe, expect, it, vi } from 'vitest';
import type { SkaldApi } from '../../../shared/contract/api';
import { BridgeError, wireErrorMessage } from '../../../shared/contract/define';
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
  /** What the preload exposes, reduced to the two members these tests use; errors as contextBridge passes them. */
  function fakePreload(listeners: ((payload: unknown) => void)[]): SkaldApi {
    return {
      chat: { history: async () => Promise.reject(new Error(wireErrorMessage({ code: 'not_found', message: 'No session 7.' }))) },
      app: { info: async () => Promise.reject(new Error('plain failure')) },
      on: { viewer: (l: (p: unknown) => void) => (listeners.push(l), () => {}) },
    } as unknown as SkaldApi;
  }

  it('a failed call rejects with a BridgeError that keeps its code', async () => {
    const api = fromPreload(fakePreload([]));
    const failure = await api.chat.history({ sessionId: 7 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BridgeError);
    expect(failure).toMatchObject({ code: 'not_found', message: 'No session 7.' });
    await expect(api.app.info({})).rejects.toMatchObject({ code: 'unknown', message: 'plain failure' });
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
    expect(ServerFrameSchema.parse({ type: 'result', id: null, ok: false, error: { code: 'bad_frame', message: 'x' } })).toMatchObject({ ok: false });
    expect(ServerFrameSchema.parse({ type: 'event', family: 'chat', payload: {} })).toMatchObject({ type: 'event' });
    expect(ServerFrameSchema.safeParse({ type: 'result', id: 1, ok: false }).success).toBe(false);
  });
});

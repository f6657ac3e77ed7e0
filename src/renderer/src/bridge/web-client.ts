/**
 * `window.skald` for the web shape: the same contract over one WebSocket (SPEC.md §1). Calls made before the
 * socket opens wait for it; a dropped socket reconnects after 1 s and pending calls fail with a clear error
 * (the core keeps running — a turn survives a reconnect). The token travels in the HttpOnly cookie the server
 * set on the first page load, and in the query when the page still has it.
 */
import { buildSkaldApi, type SkaldApi } from '../../../shared/contract/api';
import { BridgeError, type BridgeErrorShape } from '../../../shared/contract/define';

type ResultFrame = { type: 'result'; id: number | null; ok: boolean; result?: unknown; error?: BridgeErrorShape };
type EventFrame = { type: 'event'; family: string; payload: unknown };

export function createWebClient(location: Location): SkaldApi {
  const token = new URLSearchParams(location.search).get('token');
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let socket: WebSocket;
  let opened: Promise<void>;

  function connect(): void {
    socket = new WebSocket(wsUrl);
    opened = new Promise((resolve) => socket.addEventListener('open', () => resolve(), { once: true }));
    socket.addEventListener('message', (message) => {
      const frame = JSON.parse(String(message.data)) as ResultFrame | EventFrame;
      if (frame.type === 'event') {
        for (const listener of listeners.get(frame.family) ?? []) listener(frame.payload);
        return;
      }
      if (frame.id === null) return;
      const waiter = pending.get(frame.id);
      pending.delete(frame.id);
      if (!waiter) return;
      if (frame.ok) waiter.resolve(frame.result);
      else waiter.reject(new BridgeError(frame.error?.code ?? 'unknown', frame.error?.message ?? 'failed'));
    });
    socket.addEventListener('close', () => {
      for (const waiter of pending.values()) waiter.reject(new BridgeError('disconnected', 'Lost the connection to Skald; retrying.'));
      pending.clear();
      setTimeout(connect, 1_000);
    });
  }
  connect();

  return buildSkaldApi({
    async invoke(channel, request) {
      await opened;
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        socket.send(JSON.stringify({ type: 'call', id, channel, request }));
      });
    },
    subscribe(family, listener) {
      let set = listeners.get(family);
      if (!set) listeners.set(family, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
  });
}

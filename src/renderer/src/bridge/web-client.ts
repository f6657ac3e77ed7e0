/**
 * `window.skald` for the web shape: the same contract over one WebSocket (docs/architecture.md, "The web shape").
 * Frames are parsed with the shared wire schema and events with the contract (boundary.ts). A dropped socket is
 * reported (connection.ts: the app shows a "reconnecting" bar) and retried every second; calls in flight fail with
 * a `disconnected` error, and calls made while it is down wait for the next connection. The core keeps running
 * while the socket is down, and a restarted server keeps its token per data folder, so the tab reconnects on its
 * own: the token travels in the HttpOnly cookie the server set on the first page load, and in the query while the
 * page still has it.
 */
import { buildSkaldApi, type SkaldApi } from '../../../shared/contract/api';
import { BridgeError, unwrapOutcome } from '../../../shared/contract/define';
import { ServerFrameSchema } from '../../../shared/web-wire';
import { parsedTransport } from './boundary';
import { reportConnected, reportDisconnected } from './connection';

export const RECONNECT_DELAY_MS = 1_000;

export function createWebClient(location: Location): SkaldApi {
  const token = new URLSearchParams(location.search).get('token');
  const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let waitingForOpen: (() => void)[] = [];
  let nextId = 1;
  let socket: WebSocket;

  function connect(): void {
    socket = new WebSocket(wsUrl);
    socket.addEventListener('open', () => {
      reportConnected();
      const waiters = waitingForOpen;
      waitingForOpen = [];
      for (const wake of waiters) wake();
    });
    socket.addEventListener('message', (message) => {
      let raw: unknown;
      try {
        raw = JSON.parse(String(message.data));
      } catch {
        console.error('[skald] dropped a frame that is not JSON');
        return;
      }
      const parsed = ServerFrameSchema.safeParse(raw);
      if (!parsed.success) {
        console.error('[skald] dropped a frame that does not match the wire format', parsed.error.issues);
        return;
      }
      const frame = parsed.data;
      if (frame.type === 'event') {
        for (const listener of listeners.get(frame.family) ?? []) listener(frame.payload);
        return;
      }
      if (frame.id === null) return;
      const waiter = pending.get(frame.id);
      pending.delete(frame.id);
      if (!waiter) return;
      // The same unwrapping as the desktop path (boundary.ts): a result, or the BridgeError with its code.
      try {
        waiter.resolve(unwrapOutcome(frame));
      } catch (error) {
        waiter.reject(error as Error);
      }
    });
    socket.addEventListener('close', () => {
      reportDisconnected();
      for (const waiter of pending.values()) waiter.reject(new BridgeError('disconnected', 'Lost the connection to Skald; retrying.'));
      pending.clear();
      setTimeout(connect, RECONNECT_DELAY_MS);
    });
  }
  connect();

  const untilOpen = (): Promise<void> =>
    socket.readyState === WebSocket.OPEN ? Promise.resolve() : new Promise((resolve) => waitingForOpen.push(resolve));

  return buildSkaldApi(
    parsedTransport({
      async invoke(channel, request) {
        await untilOpen();
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
    }),
  );
}

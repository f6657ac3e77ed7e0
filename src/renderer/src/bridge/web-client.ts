/**
 * `window.skald` for the web shape: the same contract over one WebSocket (docs/architecture.md, "The web shape").
 * Frames are parsed with the shared wire schema and events with the contract (boundary.ts). A dropped socket is
 * reported (connection.ts: the app shows a "reconnecting" bar) and retried every second; calls in flight fail with
 * a `disconnected` error, and calls made while it is down wait for the next connection. The core keeps running
 * while the socket is down, and a restarted server keeps its token per data folder, so the tab reconnects on its
 * own: the token travels in the HttpOnly cookie the server set on the first page load, and in the query while the
 * page still has it. The first connection adopts the socket the page's entry opened early (early-socket.ts): what
 * arrived on it before is replayed, and the app's first ask for the early call's channel and request takes that
 * call's answer instead of sending it again (docs/ui.md "What the first page loads").
 */
import { buildSkaldApi, type SkaldApi } from '../../../shared/contract/api';
import { BridgeError, unwrapOutcome } from '../../../shared/contract/define';
import { ServerFrameSchema } from '../../../shared/web-wire';
import { parsedTransport } from './boundary';
import { socketUrl, type EarlySocket } from './early-socket';
import { reportConnected, reportDisconnected } from './connection';

export const RECONNECT_DELAY_MS = 1_000;

export function createWebClient(location: Location, early: EarlySocket | null = null): SkaldApi {
  const wsUrl = socketUrl(location);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let waitingForOpen: (() => void)[] = [];
  let nextId = 1;
  let socket: WebSocket;
  /** The entry's early call (early-socket.ts) until the app asks for it; its answer if it came first. */
  let earlyCall = early?.call ?? null;
  let earlyAnswer: { frame: Parameters<typeof unwrapOutcome>[0] } | null = null;

  const opened = () => {
    reportConnected();
    const waiters = waitingForOpen;
    waitingForOpen = [];
    for (const wake of waiters) wake();
  };
  const onMessage = (message: MessageEvent) => {
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
    if (!waiter) {
      // The early call answered before the app asked for it: kept for that ask.
      if (earlyCall && frame.id === earlyCall.id) earlyAnswer = { frame };
      return;
    }
    settle(waiter, frame);
  };
  // The same unwrapping as the desktop path (boundary.ts): a result, or the BridgeError with its code.
  const settle = (
    waiter: { resolve: (v: unknown) => void; reject: (e: Error) => void },
    frame: Parameters<typeof unwrapOutcome>[0],
  ) => {
    try {
      waiter.resolve(unwrapOutcome(frame));
    } catch (error) {
      waiter.reject(error as Error);
    }
  };

  function connect(): void {
    // The first connection adopts the entry's early socket, unless it has already closed.
    const adopted = early && early.socket.readyState <= WebSocket.OPEN ? early : null;
    if (early && !adopted) earlyCall = null;
    early = null;
    socket = adopted?.socket ?? new WebSocket(wsUrl);
    socket.addEventListener('open', opened);
    socket.addEventListener('message', onMessage);
    socket.addEventListener('close', () => {
      reportDisconnected();
      for (const waiter of pending.values())
        waiter.reject(new BridgeError('disconnected', 'Lost the connection to Skald; retrying.'));
      pending.clear();
      // An early call not yet answered is lost with its socket: the app's own ask then goes out on the next one.
      if (earlyCall && !earlyAnswer) earlyCall = null;
      setTimeout(connect, RECONNECT_DELAY_MS);
    });
    if (adopted) {
      adopted.release();
      for (const message of adopted.received) onMessage(message);
      if (adopted.socket.readyState === WebSocket.OPEN) opened();
    }
  }
  connect();

  /** The app's first ask for exactly the early call takes its answer (now, or when it comes). */
  const takeEarly = (channel: string, request: unknown): Promise<unknown> | null => {
    if (!earlyCall || earlyCall.channel !== channel || JSON.stringify(earlyCall.request) !== JSON.stringify(request))
      return null;
    const { id } = earlyCall;
    const answer = earlyAnswer;
    earlyCall = null;
    earlyAnswer = null;
    return new Promise((resolve, reject) => {
      if (answer) settle({ resolve, reject }, answer.frame);
      else pending.set(id, { resolve, reject });
    });
  };

  const untilOpen = (): Promise<void> =>
    socket.readyState === WebSocket.OPEN ? Promise.resolve() : new Promise((resolve) => waitingForOpen.push(resolve));

  return buildSkaldApi(
    parsedTransport({
      async invoke(channel, request) {
        const answered = takeEarly(channel, request);
        if (answered) return answered;
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

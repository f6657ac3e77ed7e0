/**
 * The web shape's socket, opened by the page's entry chunk before the app's own chunk has loaded (docs/ui.md "What
 * the first page loads"): the first screen's call (`chat:listSessions` with the newest session's page) goes out at
 * once, and the core answers it while the page still fetches, parses and evaluates the app (React, the contract,
 * the chat). The web client (web-client.ts) then adopts the socket, replays what arrived meanwhile, and answers the
 * app's own first-screen call with that early answer instead of sending it again.
 * This module imports nothing at run time, so the entry chunk that holds it is a few kilobytes. On desktop (the
 * preload's IPC bridge is there) it does nothing.
 */
import type { CallRequest } from '../../../shared/contract/index';

/** The first screen's call: sessions-store asks for exactly this, so the early answer is taken for it. */
export const FIRST_SCREEN_CALL = {
  channel: 'chat:listSessions',
  request: { withNewestHistory: true } satisfies CallRequest<'chat:listSessions'>,
} as const;
/** The early call's id on the socket; the web client numbers its own calls from 1. */
export const EARLY_CALL_ID = 0;

/** The socket's URL for the page at `location`: the token travels in the query while the page still has it. */
export function socketUrl(location: Location): string {
  const token = new URLSearchParams(location.search).get('token');
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}

export interface EarlySocket {
  socket: WebSocket;
  /** Messages that arrived before the web client listened, in order. */
  received: MessageEvent[];
  /** Stops collecting `received` (the web client listens from now on). */
  release(): void;
  /** The early call, as sent. */
  call: { channel: string; request: unknown; id: number };
}

let early: EarlySocket | null = null;

/** Opens the socket and sends the first screen's call as soon as it is open. Web shape only; once. */
export function openEarlySocket(): void {
  if (early || typeof window === 'undefined' || window.skaldBridge || typeof WebSocket === 'undefined') return;
  const socket = new WebSocket(socketUrl(window.location));
  const received: MessageEvent[] = [];
  const collect = (event: MessageEvent) => received.push(event);
  socket.addEventListener('message', collect);
  const call = { ...FIRST_SCREEN_CALL, id: EARLY_CALL_ID };
  socket.addEventListener('open', () => socket.send(JSON.stringify({ type: 'call', ...call })), { once: true });
  early = { socket, received, call, release: () => socket.removeEventListener('message', collect) };
}

/** The early socket, for the web client's first connection (null when none was opened, or already taken). */
export function takeEarlySocket(): EarlySocket | null {
  const taken = early;
  early = null;
  return taken;
}

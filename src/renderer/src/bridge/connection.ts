/**
 * Whether the renderer can reach the core right now. The desktop's IPC cannot drop, so it stays `connected`; the
 * web shape's socket can (the server restarted or died), and the web client reports it here. `reconnects` counts
 * the times the link came back, so the app can reload what it shows once it does (App.tsx).
 */
import { createStore } from 'zustand/vanilla';

export interface ConnectionState {
  state: 'connecting' | 'connected' | 'reconnecting';
  reconnects: number;
}

export const connectionStore = createStore<ConnectionState>(() => ({ state: 'connecting', reconnects: 0 }));

export function reportConnected(): void {
  connectionStore.setState((s) => ({
    state: 'connected',
    reconnects: s.state === 'reconnecting' ? s.reconnects + 1 : s.reconnects,
  }));
}

export function reportDisconnected(): void {
  connectionStore.setState((s) => ({ state: s.state === 'connecting' ? 'connecting' : 'reconnecting' }));
}

/**
 * Calls `listener` each time the link comes back after a drop: the events sent meanwhile were missed, so whatever
 * mirrors the core's state (the chat, the session list, the approvals, MCP) reads it again. Returns the unsubscribe.
 */
export function onReconnect(listener: () => void): () => void {
  return connectionStore.subscribe((now, before) => {
    if (now.reconnects !== before.reconnects) listener();
  });
}

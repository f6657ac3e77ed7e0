/**
 * MCP view state (docs/mcp.md): the servers as Settings shows them, the elicitations waiting for the person, and
 * the last progress of each running MCP call. The truth stays in the core; this store re-reads `mcp:list` on a
 * `server_changed` event and keeps what the events carry. `watch()` subscribes while anyone shows it; an
 * elicitation's answer goes straight to the core and is never kept here.
 */
import { createStore } from 'zustand/vanilla';
import type { ElicitationView, McpServerView } from '../../../shared/contract/mcp';
import { skald } from '../bridge/skald';
import { sharedWatch } from './shared-watch';
import { onReconnect } from '../bridge/connection';

export interface McpProgress {
  progress: number;
  total: number | null;
  message: string | null;
}

export interface McpState {
  servers: McpServerView[];
  elicitations: ElicitationView[];
  progress: Record<string, McpProgress>;
  loaded: boolean;
  error: string | null;
}

const initial: McpState = { servers: [], elicitations: [], progress: {}, loaded: false, error: null };

export function createMcpStore() {
  const store = createStore<McpState>(() => initial);
  /** Reads started (as in approvals.ts: only the newest read's answer is kept), and elicitation events applied. */
  let generation = 0;
  let elicitationEvents = 0;
  /**
   * Re-reads the servers and the waiting elicitations. A read is a snapshot taken before its answer lands: an
   * elicitation event applied meanwhile is newer than it (a server starting beside a call that asks the person
   * something sends `server_changed` and `elicitation` together, and the older empty list used to wipe the form
   * out for good), so such a read reads again.
   */
  async function refresh(): Promise<void> {
    const mine = ++generation;
    const eventsBefore = elicitationEvents;
    try {
      const [{ servers }, { elicitations }] = await Promise.all([skald.mcp.list({}), skald.mcp.listElicitations({})]);
      if (mine !== generation) return;
      if (eventsBefore !== elicitationEvents) return refresh();
      store.setState({ servers, elicitations, loaded: true, error: null });
    } catch (e) {
      if (mine === generation) store.setState({ error: (e as Error).message });
    }
  }
  const changeElicitations = (change: (list: ElicitationView[]) => ElicitationView[]) => {
    elicitationEvents++;
    store.setState((s) => ({ elicitations: change(s.elicitations) }));
  };

  return {
    store,
    refresh,
    watch: sharedWatch(() => {
      void refresh();
      // Events sent while the link was down were missed: read the servers and questions again when it is back.
      const offReconnect = onReconnect(() => void refresh());
      const offEvents = skald.on.mcp((event) => {
        if (event.type === 'server_changed') void refresh();
        else if (event.type === 'elicitation')
          changeElicitations((list) => [...list.filter((e) => e.id !== event.elicitation.id), event.elicitation]);
        else if (event.type === 'elicitation_resolved')
          changeElicitations((list) => list.filter((e) => e.id !== event.id));
        else if (event.type === 'progress' && event.tool_call_id) {
          const id = event.tool_call_id;
          store.setState((s) => ({
            progress: { ...s.progress, [id]: { progress: event.progress, total: event.total, message: event.message } },
          }));
        }
      });
      return () => {
        offEvents();
        offReconnect();
      };
    }),
    /** Runs a call and re-reads; resolves to the error message, or null. */
    async act(work: () => Promise<unknown>): Promise<string | null> {
      try {
        await work();
        await refresh();
        return null;
      } catch (e) {
        await refresh();
        return (e as Error).message;
      }
    },
  };
}

export const mcp = createMcpStore();

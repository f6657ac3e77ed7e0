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
  async function refresh(): Promise<void> {
    try {
      const [{ servers }, { elicitations }] = await Promise.all([skald.mcp.list({}), skald.mcp.listElicitations({})]);
      store.setState({ servers, elicitations, loaded: true, error: null });
    } catch (e) {
      store.setState({ error: (e as Error).message });
    }
  }

  return {
    store,
    refresh,
    watch: sharedWatch(() => {
      void refresh();
      return skald.on.mcp((event) => {
        if (event.type === 'server_changed') void refresh();
        else if (event.type === 'elicitation') store.setState((s) => ({ elicitations: [...s.elicitations.filter((e) => e.id !== event.elicitation.id), event.elicitation] }));
        else if (event.type === 'elicitation_resolved') store.setState((s) => ({ elicitations: s.elicitations.filter((e) => e.id !== event.id) }));
        else if (event.type === 'progress' && event.tool_call_id) {
          const id = event.tool_call_id;
          store.setState((s) => ({ progress: { ...s.progress, [id]: { progress: event.progress, total: event.total, message: event.message } } }));
        }
      });
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

/**
 * An agent frame: who is running in a turn at one level of the call stack (docs/agents.md "Sub-agents"). Depth 0
 * is the session's own agent (`main` in a chat, the job's agent in a background run); each sync sub-agent runs one
 * level deeper in a child stack (`chat_sessions_stack`) of the same session, under the same cancel signal, gate
 * and permission group. The frame decides which tools are offered (tool-sets.ts) and labels what the person sees.
 */
export const MAX_AGENT_DEPTH = 5;
/** How many sync sub-agents of one round run at once; the others wait for a free slot. */
export const MAX_PARALLEL_SUBAGENTS = 4;

export interface AgentFrame {
  sessionId: number;
  /** null for depth 0 (the session's own rows); the child stack's id otherwise. */
  stackId: number | null;
  depth: number;
  agentId: string;
  agentName: string;
  agentType: 'chat' | 'task' | 'system';
  /** A chat session a person watches; false for background runs (async tasks, cron jobs). */
  interactive: boolean;
  /** Narrows the built-in tools (meta.json `tools`); null = no narrowing. */
  toolAllowList: string[] | null;
}

/** What an approval or question of this frame is labelled with in the chat and the Inbox. */
export function frameLabel(frame: AgentFrame): string | null {
  return frame.depth === 0 ? null : `Sub-agent ${frame.agentName} (${frame.agentId}, depth ${frame.depth})`;
}

/**
 * An agent frame: who is running in a turn at one level of the call stack (docs/agents.md "Sub-agents"). Depth 0
 * is the session's own agent (`main` in a chat, the job's agent in a background run); each sync sub-agent runs one
 * level deeper in a child stack (`chat_sessions_stack`) of the same session, under the same cancel signal, gate
 * and permission group. The frame decides which tools are offered (tool-sets.ts) and labels what the person sees.
 * Its shape is declared with the session's own tools, which read it (tools/session/interface-tool.ts).
 */
import type { AgentFrame } from '../tools/session/interface-tool';

export type { AgentFrame };

export const MAX_AGENT_DEPTH = 5;
/** How many sync sub-agents of one round run at once; the others wait for a free slot. */
export const MAX_PARALLEL_SUBAGENTS = 4;

/** What an approval or question of this frame is labelled with in the chat and the Inbox. */
export function frameLabel(frame: AgentFrame): string | null {
  return frame.depth === 0 ? null : `Sub-agent ${frame.agentName} (${frame.agentId}, depth ${frame.depth})`;
}

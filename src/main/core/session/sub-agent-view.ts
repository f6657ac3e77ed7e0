/**
 * The sub-agent card's content (`chat:subAgent`, docs/agents.md "Sub-agents"): the child stack a call started, with
 * its messages; nested cards load their own.
 */
import type { HistoryMessage, SubAgentStack } from '../../../shared/contract/chat';
import type { AgentRegistry } from '../agents/agent-registry';
import type { StackStore } from '../agents/stack-store';
import { historyMessages, type PendingInfo } from './history';
import type { ToolsPort } from './ports';
import type { SessionStore } from './session-store';

export interface SubAgentViewSource {
  store: SessionStore;
  stacks: StackStore;
  agents: AgentRegistry;
  tools: ToolsPort;
  pendingOf: (toolCallId: string) => PendingInfo | null;
  /** Whether the session's turn runs (a stack not yet ended then still runs). */
  isRunning: boolean;
}

export function subAgentView(
  src: SubAgentViewSource,
  sessionId: number,
  parentToolCallId: string,
): { stack: SubAgentStack | null; messages: HistoryMessage[] } {
  const row = src.stacks.byParentCall(sessionId, parentToolCallId);
  if (!row) return { stack: null, messages: [] };
  const page = src.store.page(sessionId, Number.MAX_SAFE_INTEGER, 10_000, row.id);
  const running = row.terminated_at === null && src.isRunning;
  const agent = src.agents.get(row.agent_id);
  // What the sub-agent's calls returned to be seen (read_file on an image), as on the session's own page.
  const images = page.messages.length
    ? src.store.images.listed(sessionId, page.messages[0]!.id, page.messages.at(-1)!.id)
    : undefined;
  const messages = historyMessages(page.messages, page.tools, src.tools, running, src.pendingOf, images);
  const usage = src.stacks.usage(row.id);
  return {
    stack: {
      stack_id: row.id,
      parent_tool_call_id: parentToolCallId,
      agent_id: row.agent_id,
      agent_name: 'error' in agent ? row.agent_id : agent.name,
      depth: row.depth,
      running,
      ...usage,
    },
    messages,
  };
}

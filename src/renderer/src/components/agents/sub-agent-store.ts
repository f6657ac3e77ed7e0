/**
 * View state of the sub-agent cards (docs/agents.md "Sub-agents"): one entry per sub-agent call, keyed by the
 * parent's tool call id, holding the child's messages as the chat view holds the session's (the same reducer).
 * Live: `agent_start` opens an entry, every event with that `stack_id` goes into it, `agent_done` closes it.
 * Approval events carry no stack id: they go to whichever entry holds that tool call. After a reload an entry is
 * loaded once from `chat:subAgent` when its card is first shown. Grandchildren are entries of their own, shown
 * inside their parent's card (the card of the tool call that started them).
 */
import { createStore } from 'zustand/vanilla';
import type { ChatEvent, SubAgentStack } from '../../../../shared/contract/chat';
import { skald } from '../../bridge/skald';
import { reduceChat, type ChatState } from '../../stores/chat-store';

export interface SubAgentView {
  stack: SubAgentStack;
  title: string;
  model: string | null;
  status: 'running' | 'done' | 'cancelled' | 'failed' | 'exhausted';
  chat: ChatState;
}

interface State {
  byParent: Record<string, SubAgentView>;
  parentOfStack: Record<number, string>;
}

const emptyChat = (sessionId: number): ChatState => ({
  sessionId,
  messages: [],
  streaming: null,
  running: true,
  notices: [],
  hasMore: false,
  loaded: true,
});

export const subAgents = createStore<State>(() => ({ byParent: {}, parentOfStack: {} }));
const loading = new Set<string>();

function update(parent: string, patch: (v: SubAgentView) => SubAgentView): void {
  subAgents.setState((s) => {
    const view = s.byParent[parent];
    return view ? { ...s, byParent: { ...s.byParent, [parent]: patch(view) } } : s;
  });
}

export function applySubAgentEvent(event: ChatEvent): void {
  if (event.type === 'agent_start') {
    const view: SubAgentView = {
      stack: {
        stack_id: event.stack_id,
        parent_tool_call_id: event.parent_tool_call_id,
        agent_id: event.agent_id,
        agent_name: event.agent_name,
        depth: event.depth,
        running: true,
        input_tokens: 0,
        output_tokens: 0,
        cost: null,
      },
      title: event.title,
      model: event.model,
      status: 'running',
      chat: emptyChat(event.session_id),
    };
    subAgents.setState((s) => ({
      byParent: { ...s.byParent, [event.parent_tool_call_id]: view },
      parentOfStack: { ...s.parentOfStack, [event.stack_id]: event.parent_tool_call_id },
    }));
    return;
  }
  if (event.type === 'agent_done') {
    const parent = subAgents.getState().parentOfStack[event.stack_id];
    if (parent) {
      update(parent, (v) => ({
        ...v,
        status: event.status,
        stack: {
          ...v.stack,
          running: false,
          input_tokens: event.input_tokens,
          output_tokens: event.output_tokens,
          cost: event.cost,
        },
        chat: { ...v.chat, running: false, streaming: null },
      }));
    }
    return;
  }
  if (event.stack_id !== undefined) {
    const parent = subAgents.getState().parentOfStack[event.stack_id];
    if (!parent) return;
    const { stack_id: _own, ...plain } = event;
    update(parent, (v) => {
      const next = reduceChat(v.chat, plain as ChatEvent);
      // Tokens of the child so far, from its finished rounds.
      const tokens =
        event.type === 'thinking' || event.type === 'done'
          ? {
              input_tokens: v.stack.input_tokens + event.input_tokens,
              output_tokens: v.stack.output_tokens + event.output_tokens,
            }
          : {};
      return { ...v, chat: next, stack: { ...v.stack, ...tokens } };
    });
    return;
  }
  if (event.type === 'approval_required' || event.type === 'pending_write' || event.type === 'agent_question') {
    const { byParent } = subAgents.getState();
    for (const [parent, view] of Object.entries(byParent)) {
      if (view.chat.messages.some((m) => m.tools.some((t) => t.tool_call_id === event.tool_call_id)))
        update(parent, (v) => ({ ...v, chat: reduceChat(v.chat, event) }));
    }
  }
}

/** Loads a card's content once (after a reload, or for a call whose start this window did not see). */
export async function loadSubAgent(sessionId: number, parentToolCallId: string): Promise<void> {
  if (subAgents.getState().byParent[parentToolCallId] || loading.has(parentToolCallId)) return;
  loading.add(parentToolCallId);
  try {
    const { stack, messages } = await skald.chat.subAgent({ sessionId, parentToolCallId });
    if (!stack || subAgents.getState().byParent[parentToolCallId]) return;
    const view: SubAgentView = {
      stack,
      title: '',
      model: null,
      status: stack.running ? 'running' : 'done',
      chat: { ...emptyChat(sessionId), messages, running: stack.running },
    };
    subAgents.setState((s) => ({
      byParent: { ...s.byParent, [parentToolCallId]: view },
      parentOfStack: { ...s.parentOfStack, [stack.stack_id]: parentToolCallId },
    }));
  } catch {
    // A card without its content is still a card: the tool result below it says what the child answered.
  } finally {
    loading.delete(parentToolCallId);
  }
}

/** Another session opened: the cards of the old one are not needed. */
export function resetSubAgents(): void {
  subAgents.setState({ byParent: {}, parentOfStack: {} });
}

/**
 * The chat view's state for the open session (view state only; the truth is in the core's database). Events are
 * applied as they arrive; text deltas are buffered and flushed once per animation frame so a fast stream
 * (thousands of tokens a second) never re-renders per token.
 */
import { createStore } from 'zustand/vanilla';
import type { ChatEvent, HistoryMessage, ToolCard } from '../../../shared/contract/chat';
import { skald } from '../bridge/skald';

export interface Notice {
  id: number;
  kind: 'command' | 'error' | 'info';
  text: string;
  afterMessageId: number;
}

export interface ChatState {
  sessionId: number | null;
  messages: HistoryMessage[];
  streaming: { round: number; text: string; reasoning: string } | null;
  running: boolean;
  notices: Notice[];
  hasMore: boolean;
}

const initial: ChatState = { sessionId: null, messages: [], streaming: null, running: false, notices: [], hasMore: false };

let noticeId = 1;
const lastId = (s: ChatState) => s.messages.at(-1)?.id ?? 0;

function updateCard(messages: HistoryMessage[], toolCallId: string, patch: (card: ToolCard) => ToolCard): HistoryMessage[] {
  return messages.map((m) => (m.tools.some((t) => t.tool_call_id === toolCallId) ? { ...m, tools: m.tools.map((t) => (t.tool_call_id === toolCallId ? patch(t) : t)) } : m));
}

function assistantMessage(id: number, content: string, inputTokens: number, outputTokens: number, cost: number | null): HistoryMessage {
  return { id, role: 'assistant', content, status: 'ok', queued: false, reasoning: null, input_tokens: inputTokens, output_tokens: outputTokens, cost, model: null, created_at: Date.now(), tools: [] };
}

export function reduceChat(state: ChatState, event: ChatEvent): ChatState {
  if (event.session_id !== state.sessionId) return state;
  const notice = (kind: Notice['kind'], text: string): ChatState => ({ ...state, notices: [...state.notices, { id: noticeId++, kind, text, afterMessageId: lastId(state) }] });
  switch (event.type) {
    case 'user_message': {
      const kept = event.replaces ? state.messages.filter((m) => m.id !== event.replaces) : state.messages;
      const message: HistoryMessage = { id: event.message_id, role: 'user', content: event.content, status: 'ok', queued: event.queued, reasoning: null, input_tokens: null, output_tokens: null, cost: null, model: null, created_at: Date.now(), tools: [] };
      return { ...state, messages: [...kept, message] };
    }
    case 'text_delta':
    case 'reasoning_delta': {
      const current = state.streaming?.round === event.round ? state.streaming : { round: event.round, text: '', reasoning: '' };
      return { ...state, streaming: event.type === 'text_delta' ? { ...current, text: current.text + event.delta } : { ...current, reasoning: current.reasoning + event.delta } };
    }
    case 'thinking':
    case 'done': {
      if (state.messages.some((m) => m.id === event.message_id)) return { ...state, streaming: null };
      const cost = event.type === 'done' ? event.cost : null;
      return { ...state, streaming: null, messages: [...state.messages, assistantMessage(event.message_id, event.content, event.input_tokens, event.output_tokens, cost)] };
    }
    case 'tool_start': {
      const card: ToolCard = { tool_call_id: event.tool_call_id, message_id: event.message_id, name: event.name, arguments: event.arguments, status: 'running', result: null, result_type: 'string', label_short: event.label_short, label_full: event.label_full, path: event.path, decision: null, interrupted: false, pending: null };
      const has = state.messages.some((m) => m.id === event.message_id);
      const messages = has ? state.messages : [...state.messages, assistantMessage(event.message_id, state.streaming?.text ?? '', 0, 0, null)];
      return { ...state, streaming: null, messages: messages.map((m) => (m.id === event.message_id ? { ...m, tools: [...m.tools, card] } : m)) };
    }
    case 'tool_decision':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, decision: event.decision })) };
    case 'tool_done':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, status: 'done', result: event.result, result_type: event.result_type, pending: null })) };
    case 'tool_error':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, status: 'failed', result: event.error, pending: null, interrupted: false })) };
    case 'tool_cancelled':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, status: 'cancelled', result: event.note, pending: null })) };
    case 'tool_rejected':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, status: 'rejected', result: event.reason, pending: null })) };
    case 'tool_interrupted':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, interrupted: true })) };
    case 'approval_required':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, status: 'pending', pending: { request_id: event.request_id, args_hash: event.args_hash, old_content: c.pending?.old_content ?? null, new_content: c.pending?.new_content ?? null } })) };
    case 'pending_write':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, status: 'pending', pending: { request_id: event.request_id, args_hash: event.args_hash, old_content: event.old_content, new_content: event.new_content } })) };
    case 'agent_question':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, status: 'pending', pending: { request_id: event.request_id, args_hash: '', old_content: null, new_content: null } })) };
    case 'approval_resolved':
      return { ...state, messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, status: event.approved ? 'running' : c.status, pending: null })) };
    case 'turn_running':
      return { ...state, running: event.running, streaming: event.running ? state.streaming : null };
    case 'command_reply':
      return notice('command', event.content);
    case 'error':
      return notice('error', event.message);
    case 'llm_failed':
      return notice('error', `Every model failed (${event.tried.join(', ')}): ${event.last_error}`);
    case 'model_fallback':
      return notice('info', `Model ${event.from} failed (${event.reason}); trying ${event.to}.`);
    case 'cancelled':
      return notice('info', 'Turn stopped.');
    case 'truncated':
      return notice('info', `The reply was cut at ${event.output_tokens} output tokens.`);
    default:
      return state;
  }
}

export function createChatStore() {
  const store = createStore<ChatState>(() => initial);
  let buffered: ChatEvent[] = [];
  let scheduled = false;
  let loadingOlder = false;

  const flush = () => {
    scheduled = false;
    const events = buffered;
    buffered = [];
    store.setState((s) => events.reduce(reduceChat, s));
  };

  return {
    store,
    /** Deltas are batched per frame; every other event flushes what is buffered first, keeping order. */
    apply(event: ChatEvent) {
      buffered.push(event);
      if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
        if (!scheduled) {
          scheduled = true;
          requestAnimationFrame(flush);
        }
        return;
      }
      flush();
    },
    async open(sessionId: number) {
      store.setState({ ...initial, sessionId });
      const page = await skald.chat.history({ sessionId });
      if (store.getState().sessionId === sessionId) store.setState({ messages: page.messages, hasMore: page.hasMore, running: page.running });
    },
    /** Loads the page before the oldest message shown; returns how many rows were added at the top. */
    async loadOlder(): Promise<number> {
      const { sessionId, messages, hasMore } = store.getState();
      if (sessionId === null || !hasMore || loadingOlder) return 0;
      loadingOlder = true;
      try {
        const page = await skald.chat.history({ sessionId, beforeId: messages[0]?.id ?? Number.MAX_SAFE_INTEGER, limit: 100 });
        if (store.getState().sessionId !== sessionId) return 0;
        store.setState((s) => ({ messages: [...page.messages, ...s.messages], hasMore: page.hasMore }));
        return page.messages.length;
      } finally {
        loadingOlder = false;
      }
    },
    async send(content: string) {
      const { sessionId } = store.getState();
      if (sessionId === null) return;
      // Only slash commands get an optimistic bubble (reference-facts.md §13); messages wait for the echo.
      if (content.trim().startsWith('/')) store.setState((s) => ({ notices: [...s.notices, { id: noticeId++, kind: 'info', text: content.trim(), afterMessageId: lastId(s) }] }));
      await skald.chat.send({ sessionId, content });
    },
    async stop() {
      const { sessionId } = store.getState();
      if (sessionId !== null) await skald.chat.stop({ sessionId });
    },
    reset() {
      store.setState(initial);
    },
  };
}

export type ChatStore = ReturnType<typeof createChatStore>;
export const chat = createChatStore();

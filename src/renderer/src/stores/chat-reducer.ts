/**
 * The chat view's state and the pure reducer that applies one core event to it (no bridge, no timers), so it is
 * tested alone. Cards follow their row live: every event about a call updates the card in place, and its status is
 * the one the event says (the core's, as it wrote the row): the reducer never works out a transition itself.
 */
import type { ChatEvent, HistoryMessage, ToolCard } from '../../../shared/contract/chat';

export interface Notice {
  id: number;
  kind: 'command' | 'error' | 'info';
  text: string;
  afterMessageId: number;
}

/**
 * The deltas of a streamed text, newest first, each linked to the one before. A view reads what arrived since it
 * last looked by walking back to the delta it saw last (lib/markdown-stream.ts), never the whole text: the text is a
 * rope of thousands of deltas, and reading any part of it makes V8 copy all of it into one flat string, a copy as
 * long as the reply at every frame.
 */
export interface TextDelta {
  text: string;
  before: TextDelta | null;
}

export interface Streaming {
  round: number;
  /** The whole text so far; `deltas` holds the same text as its deltas (the newest first). */
  text: string;
  deltas: TextDelta | null;
  reasoning: string;
}

export interface ChatState {
  sessionId: number | null;
  messages: HistoryMessage[];
  streaming: Streaming | null;
  running: boolean;
  notices: Notice[];
  hasMore: boolean;
  /** The open session's newest page has arrived: the list can open at its bottom (components/ChatView.tsx). */
  loaded: boolean;
  /**
   * A message to bring into view (a search hit, docs/ui.md "Searching chats"), once it is loaded; `nonce` makes the
   * same message asked for twice a new request. The list clears nothing: it acts on each nonce once.
   */
  reveal?: { messageId: number; nonce: number } | null;
  /** Arrow Up in an empty message box: the person's newest message opens for editing (a new number each time). */
  editNewest?: number;
}

export const initial: ChatState = {
  sessionId: null,
  messages: [],
  streaming: null,
  running: false,
  notices: [],
  hasMore: false,
  loaded: false,
  reveal: null,
};

let noticeId = 1;
export const nextNoticeId = () => noticeId++;
export const lastId = (s: ChatState) => s.messages.at(-1)?.id ?? 0;

/**
 * Applies a state change to one card. Any news of a call means it is live again, so it is no longer shown as
 * interrupted (a re-run's decision, approval, result).
 */
function updateCard(
  messages: HistoryMessage[],
  toolCallId: string,
  patch: (card: ToolCard) => ToolCard,
  isLive = true,
): HistoryMessage[] {
  const apply = (t: ToolCard) => (isLive ? { ...patch(t), interrupted: false } : patch(t));
  return messages.map((m) =>
    m.tools.some((t) => t.tool_call_id === toolCallId)
      ? { ...m, tools: m.tools.map((t) => (t.tool_call_id === toolCallId ? apply(t) : t)) }
      : m,
  );
}
const hasCard = (messages: HistoryMessage[], toolCallId: string) =>
  messages.some((m) => m.tools.some((t) => t.tool_call_id === toolCallId));

/** An answer as its event brings it; `reasoning`: what the round streamed of the model's reasoning (shown folded). */
function assistantMessage(
  id: number,
  content: string,
  inputTokens: number,
  outputTokens: number,
  cost: number | null,
  reasoning: string | null = null,
): HistoryMessage {
  return {
    id,
    role: 'assistant',
    content,
    status: 'ok',
    queued: false,
    reasoning,
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cost,
    model: null,
    created_at: Date.now(),
    tools: [],
  };
}

/** What a request made smaller to fit the model's context window left out (docs/models.md "Fitting the context window"). */
export function contextFittedText(e: Extract<ChatEvent, { type: 'context_fitted' }>): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const parts = [
    e.hidden_results > 0 ? plural(e.hidden_results, 'older tool result', 'older tool results') : '',
    e.dropped_messages > 0 ? plural(e.dropped_messages, 'early message', 'early messages') : '',
    e.cut_messages > 0 ? `the end of ${plural(e.cut_messages, 'long message', 'long messages')}` : '',
  ].filter(Boolean);
  const window = `${Math.round(e.window_tokens / 1000)}k tokens${e.window_is_set ? '' : ', assumed: set it in Settings → Models'}`;
  return `To fit ${e.model}'s context window (${window}), the model did not see ${parts.join(', ') || 'part of the conversation'}. /compact keeps a summary of older messages.`;
}

/** Why the model request failed: the error alone when no model was tried, "Every model failed" only for several. */
export function failedText(tried: readonly string[], lastError: string): string {
  if (tried.length === 0) return lastError;
  return tried.length === 1
    ? `The model request failed (${tried[0]}): ${lastError}`
    : `Every model failed (${tried.join(', ')}): ${lastError}`;
}

export function reduceChat(state: ChatState, event: ChatEvent): ChatState {
  if (event.session_id !== state.sessionId) return state;
  // A sub-agent's steps belong to its card (components/agents/sub-agent-store.ts), not to the session's own list.
  if (event.stack_id !== undefined) return state;
  const notice = (kind: Notice['kind'], text: string): ChatState => ({
    ...state,
    notices: [...state.notices, { id: noticeId++, kind, text, afterMessageId: lastId(state) }],
  });
  switch (event.type) {
    case 'user_message': {
      const kept = event.replaces ? state.messages.filter((m) => m.id !== event.replaces) : state.messages;
      const message: HistoryMessage = {
        id: event.message_id,
        role: 'user',
        content: event.content,
        status: 'ok',
        queued: event.queued,
        reasoning: null,
        input_tokens: null,
        output_tokens: null,
        cost: null,
        model: null,
        created_at: Date.now(),
        tools: [],
        images: event.images,
      };
      return { ...state, messages: [...kept, message] };
    }
    case 'text_delta':
    case 'reasoning_delta': {
      const current: Streaming =
        state.streaming?.round === event.round
          ? state.streaming
          : { round: event.round, text: '', deltas: null, reasoning: '' };
      const streaming =
        event.type === 'text_delta'
          ? { ...current, text: current.text + event.delta, deltas: { text: event.delta, before: current.deltas } }
          : { ...current, reasoning: current.reasoning + event.delta };
      return { ...state, streaming };
    }
    case 'thinking':
    case 'done': {
      if (state.messages.some((m) => m.id === event.message_id)) return { ...state, streaming: null };
      const cost = event.type === 'done' ? event.cost : null;
      return {
        ...state,
        streaming: null,
        messages: [
          ...state.messages,
          assistantMessage(
            event.message_id,
            event.content,
            event.input_tokens,
            event.output_tokens,
            cost,
            state.streaming?.reasoning || null,
          ),
        ],
      };
    }
    case 'tool_start': {
      // A call the view already has (history loaded while it started, or a replay) is updated, never doubled.
      if (hasCard(state.messages, event.tool_call_id)) {
        return {
          ...state,
          messages: updateCard(state.messages, event.tool_call_id, (c) => ({
            ...c,
            status: event.status,
            label_short: event.label_short,
            label_full: event.label_full,
            path: event.path,
            display: event.display,
          })),
        };
      }
      const card: ToolCard = {
        tool_call_id: event.tool_call_id,
        message_id: event.message_id,
        name: event.name,
        arguments: event.arguments,
        status: event.status,
        result: null,
        result_type: 'string',
        label_short: event.label_short,
        label_full: event.label_full,
        path: event.path,
        display: event.display,
        decision: null,
        interrupted: false,
        pending: null,
      };
      const has = state.messages.some((m) => m.id === event.message_id);
      const messages = has
        ? state.messages
        : [
            ...state.messages,
            assistantMessage(
              event.message_id,
              state.streaming?.text ?? '',
              0,
              0,
              null,
              state.streaming?.reasoning || null,
            ),
          ];
      return {
        ...state,
        streaming: null,
        messages: messages.map((m) => (m.id === event.message_id ? { ...m, tools: [...m.tools, card] } : m)),
      };
    }
    case 'tool_decision':
      // Recorded with the row; an approval's answer ends its wait the same way. A decision that does not move the
      // card (a deny, whose `tool_rejected` is right behind it) says no status.
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({
          ...c,
          status: event.status ?? c.status,
          pending: null,
          decision: event.decision,
          arguments: event.arguments,
        })),
      };
    case 'tool_done':
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({
          ...c,
          status: event.status,
          result: event.result,
          result_type: event.result_type,
          pending: null,
          ...(event.images ? { images: event.images } : {}),
        })),
      };
    case 'tool_error':
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({
          ...c,
          status: event.status,
          result: event.error,
          pending: null,
        })),
      };
    case 'tool_cancelled':
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({
          ...c,
          status: event.status,
          result: event.note,
          pending: null,
        })),
      };
    case 'tool_rejected':
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({
          ...c,
          status: event.status,
          result: event.reason,
          pending: null,
        })),
      };
    case 'tool_interrupted':
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({ ...c, interrupted: true }), false),
      };
    case 'approval_required':
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({
          ...c,
          status: event.status,
          pending: {
            request_id: event.request_id,
            args_hash: event.args_hash,
            old_content: c.pending?.old_content ?? null,
            new_content: c.pending?.new_content ?? null,
          },
        })),
      };
    case 'pending_write':
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({
          ...c,
          status: event.status,
          pending: {
            request_id: event.request_id,
            args_hash: event.args_hash,
            old_content: event.old_content,
            new_content: event.new_content,
          },
        })),
      };
    case 'agent_question':
      return {
        ...state,
        messages: updateCard(state.messages, event.tool_call_id, (c) => ({
          ...c,
          status: event.status,
          pending: { request_id: event.request_id, args_hash: '', old_content: null, new_content: null },
        })),
      };
    case 'turn_running': {
      if (event.running) return { ...state, running: true };
      // A turn ends while a call still waits only when it was stopped: its request was withdrawn (no decision), so
      // the card no longer offers an answer nobody can take (the row stays `pending`; a new message moves on).
      const waiting = state.messages.some((m) => m.tools.some((t) => t.status === 'pending' && t.pending));
      const messages = waiting
        ? state.messages.map((m) =>
            m.tools.some((t) => t.status === 'pending' && t.pending)
              ? { ...m, tools: m.tools.map((t) => (t.status === 'pending' ? { ...t, pending: null } : t)) }
              : m,
          )
        : state.messages;
      return { ...state, running: false, streaming: null, messages };
    }
    case 'messages_replaced':
      return {
        ...state,
        messages: state.messages.map((m) =>
          m.id >= event.from_id && !m.replaced ? { ...m, status: 'failed', replaced: true } : m,
        ),
      };
    case 'command_reply':
      return notice('command', event.content);
    case 'error':
      return notice('error', event.message);
    case 'llm_failed':
      return notice('error', failedText(event.tried, event.last_error));
    case 'model_fallback':
      return notice('info', `Model ${event.from} failed (${event.reason}); trying ${event.to}.`);
    case 'cancelled':
      return notice('info', 'Turn stopped.');
    case 'context_fitted':
      return notice('info', contextFittedText(event));
    case 'truncated':
      return notice('info', `The reply was cut at ${event.output_tokens} output tokens.`);
    default:
      return state;
  }
}

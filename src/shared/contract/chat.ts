/**
 * The chat's shapes (messages, tool cards, sessions, images) and the `chat` event family (docs/architecture.md
 * "Events"; text and reasoning stream as deltas); the chat's calls are in chat-calls.ts. Every event carries its
 * `session_id`; the renderer keeps only view state and re-reads history through `chat:history`.
 */
import { CARD_DISPLAYS } from '../tool-traits';
import { z } from 'zod';
import { DecisionSchema } from './approval';
import { CHAT_IMAGE_TYPES } from '../chat-images';
import { ToolCallWireFields, ToolStatusSchema } from '../tool-call';

/** An image a person put in a message, or a tool returned (docs/chat-ui.md "Images in a message"); its bytes come by `chat:image`. */
export const ChatImageSchema = z.object({
  id: z.number(),
  name: z.string(),
  media_type: z.enum(CHAT_IMAGE_TYPES),
  size: z.number(),
});
export type ChatImage = z.infer<typeof ChatImageSchema>;

export const ToolCardSchema = z.object({
  ...ToolCallWireFields,
  message_id: z.number().nullable(),
  /**
   * The row's state (docs/architecture.md "Crash and resume"): `queued` until the call's turn comes (the call
   * before it in its round may be waiting for an approval), then `running`, `pending` while a person decides, and
   * one of the four ends.
   */
  status: ToolStatusSchema,
  result: z.string().nullable(),
  result_type: z.enum(['string', 'json']),
  label_short: z.string(),
  label_full: z.string(),
  path: z.string().nullable(),
  decision: DecisionSchema.nullable(),
  /** A `running` row with no live execution: the app stopped while it ran (docs/architecture.md "Crash and resume"). */
  interrupted: z.boolean(),
  pending: z
    .object({
      request_id: z.number(),
      args_hash: z.string(),
      old_content: z.string().nullable(),
      new_content: z.string().nullable(),
    })
    .nullable(),
  /** Images the call returned for the model to see (read_file on an image file); absent when there are none. */
  images: z.array(ChatImageSchema).optional(),
  /** How the card shows the call, as the tool says (docs/tools.md "One tool shape"); absent = `none`. */
  display: z.enum(CARD_DISPLAYS).optional(),
});
export type ToolCard = z.infer<typeof ToolCardSchema>;

export const HistoryMessageSchema = z.object({
  id: z.number(),
  role: z.enum(['user', 'assistant', 'agent']),
  content: z.string(),
  status: z.enum(['ok', 'failed']),
  queued: z.boolean(),
  reasoning: z.string().nullable(),
  input_tokens: z.number().nullable(),
  output_tokens: z.number().nullable(),
  cost: z.number().nullable(),
  model: z.string().nullable(),
  created_at: z.number(),
  tools: z.array(ToolCardSchema),
  /** Replaced by a Regenerate or an Edit (status `failed`): kept, shown as replaced, never sent to the model again. */
  replaced: z.boolean().optional(),
  /** The images of a person's message; absent when it has none. */
  images: z.array(ChatImageSchema).optional(),
});
export type HistoryMessage = z.infer<typeof HistoryMessageSchema>;

export const SessionSummarySchema = z.object({
  id: z.number(),
  title: z.string(),
  updated_at: z.number(),
  running: z.boolean(),
  working_directory: z.string(),
  /** The model chosen for this session; null = auto (the first healthy model by priority). */
  model: z.string().nullable(),
  /** When the person pinned it (the list shows pinned chats first, newest pin first); null = not pinned. */
  pinned_at: z.number().nullable(),
});

export const SubAgentStackSchema = z.object({
  stack_id: z.number(),
  parent_tool_call_id: z.string(),
  agent_id: z.string(),
  agent_name: z.string(),
  depth: z.number(),
  running: z.boolean(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cost: z.number().nullable(),
});
export type SubAgentStack = z.infer<typeof SubAgentStackSchema>;

/** One page of a session's messages, newest last (`chat:history`). */
export const HistoryPageSchema = z.object({
  messages: z.array(HistoryMessageSchema),
  hasMore: z.boolean(),
  running: z.boolean(),
});

export const ScratchpadNoteSchema = z.object({ key: z.string(), value: z.string() });

/** A message holding the searched text (`chat:search`): `snippet` is one line, the match at `match_start`. */
export const ChatSearchHitSchema = z.object({
  session_id: z.number(),
  session_title: z.string(),
  message_id: z.number(),
  role: z.enum(['user', 'assistant']),
  created_at: z.number(),
  snippet: z.string(),
  match_start: z.number(),
  /** 0 when the match could not be placed in the snippet (it is then the message's start). */
  match_length: z.number(),
});
export type ChatSearchHit = z.infer<typeof ChatSearchHitSchema>;

/** The most one message from the person may hold (about 50,000 tokens): the composer says so before sending. */
export const MAX_MESSAGE_CHARS = 200_000;

/** `stack_id`: set on the events of a sub-agent's child stack (absent for the session's own agent). */
const base = { session_id: z.number(), stack_id: z.number().optional() };
/**
 * Every event about one call carries its card's status as the core wrote it (the row's, after the event): a card
 * shows `status`, it never works out a transition (docs/chat-ui.md "Tool cards").
 */
const call = { tool_call_id: z.string(), status: ToolStatusSchema };

/** How a turn ended (the session's turn loop; a sub-agent's `agent_done`, a background run's outcome). */
export const TurnResultSchema = z.enum(['done', 'cancelled', 'failed', 'exhausted']);
export type TurnResult = z.infer<typeof TurnResultSchema>;

export const ChatEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('user_message'),
    ...base,
    message_id: z.number(),
    content: z.string(),
    queued: z.boolean(),
    replaces: z.number().optional(),
    images: z.array(ChatImageSchema).optional(),
  }),
  z.object({ type: z.literal('command_reply'), ...base, command: z.string(), content: z.string() }),
  z.object({ type: z.literal('new_session'), ...base }),
  z.object({ type: z.literal('session_deleted'), ...base }),
  /** The chat's own rows from `from_id` on were replaced (Regenerate, Edit): shown as such, never sent again. */
  z.object({ type: z.literal('messages_replaced'), ...base, from_id: z.number() }),
  z.object({ type: z.literal('turn_running'), ...base, running: z.boolean() }),
  z.object({ type: z.literal('text_delta'), ...base, round: z.number(), delta: z.string() }),
  z.object({ type: z.literal('reasoning_delta'), ...base, round: z.number(), delta: z.string() }),
  z.object({
    type: z.literal('thinking'),
    ...base,
    round: z.number(),
    message_id: z.number(),
    content: z.string(),
    input_tokens: z.number(),
    output_tokens: z.number(),
  }),
  z.object({
    type: z.literal('tool_start'),
    ...base,
    ...ToolCallWireFields,
    status: ToolStatusSchema,
    message_id: z.number(),
    label_short: z.string(),
    label_full: z.string(),
    path: z.string().nullable(),
    display: z.enum(CARD_DISPLAYS).optional(),
  }),
  /**
   * The gate's or the person's decision, recorded with the row, which is `running` from then on (the card follows:
   * an approval's answer arrives here, not as an Inbox event). `arguments`: the normalized arguments the decision
   * and the hash cover; the card shows these from now on. `status` is absent where the decision does not move the
   * card: a deny, whose `tool_rejected` follows at once.
   */
  z.object({
    type: z.literal('tool_decision'),
    ...base,
    tool_call_id: z.string(),
    status: ToolStatusSchema.optional(),
    decision: DecisionSchema,
    arguments: z.string(),
  }),
  z.object({
    type: z.literal('tool_done'),
    ...base,
    ...call,
    result: z.string(),
    result_type: z.enum(['string', 'json']),
    images: z.array(ChatImageSchema).optional(),
  }),
  z.object({ type: z.literal('tool_error'), ...base, ...call, error: z.string() }),
  z.object({ type: z.literal('tool_cancelled'), ...base, ...call, note: z.string() }),
  z.object({ type: z.literal('tool_rejected'), ...base, ...call, reason: z.string() }),
  z.object({ type: z.literal('tool_interrupted'), ...base, tool_call_id: z.string() }),
  z.object({
    type: z.literal('approval_required'),
    ...base,
    request_id: z.number(),
    ...call,
    tool_name: z.string(),
    arguments: z.string(),
    args_hash: z.string(),
  }),
  z.object({
    type: z.literal('pending_write'),
    ...base,
    request_id: z.number(),
    ...call,
    path: z.string(),
    old_content: z.string().nullable(),
    new_content: z.string().nullable(),
    args_hash: z.string(),
  }),
  z.object({
    type: z.literal('agent_question'),
    ...base,
    request_id: z.number(),
    ...call,
    title: z.string(),
    question: z.string(),
    suggested_answers: z.array(z.string()),
  }),
  z.object({ type: z.literal('file_changed'), ...base, path: z.string() }),
  z.object({
    type: z.literal('done'),
    ...base,
    round: z.number(),
    message_id: z.number(),
    content: z.string(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    cost: z.number().nullable(),
  }),
  z.object({ type: z.literal('truncated'), ...base, output_tokens: z.number() }),
  z.object({ type: z.literal('cancelled'), ...base }),
  z.object({ type: z.literal('error'), ...base, message: z.string() }),
  z.object({ type: z.literal('model_fallback'), ...base, from: z.string(), to: z.string(), reason: z.string() }),
  z.object({ type: z.literal('llm_failed'), ...base, tried: z.array(z.string()), last_error: z.string() }),
  /** A request of this turn was made smaller to fit the model's context window (told once a turn). */
  z.object({
    type: z.literal('context_fitted'),
    ...base,
    model: z.string(),
    window_tokens: z.number(),
    window_is_set: z.boolean(),
    hidden_results: z.number(),
    dropped_messages: z.number(),
    cut_messages: z.number(),
  }),
  z.object({
    type: z.literal('agent_start'),
    ...base,
    stack_id: z.number(),
    parent_tool_call_id: z.string(),
    agent_id: z.string(),
    agent_name: z.string(),
    depth: z.number(),
    title: z.string(),
    model: z.string().nullable(),
  }),
  z.object({
    type: z.literal('agent_done'),
    ...base,
    stack_id: z.number(),
    status: TurnResultSchema,
    input_tokens: z.number(),
    output_tokens: z.number(),
    cost: z.number().nullable(),
  }),
  z.object({ type: z.literal('scratchpad_changed'), ...base }),
]);
export type ChatEvent = z.infer<typeof ChatEventSchema>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
/** An event before the session id is attached by the emitter. */
export type ChatEventBody = DistributiveOmit<ChatEvent, 'session_id'>;

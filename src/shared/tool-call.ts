/**
 * The one definition each of a tool call, of its row's status and of a rule's action (docs/architecture.md "Crash and
 * resume", docs/approval.md): the core (llm, session, approval, tools), the contract's schemas and the renderer all
 * import these, so the three cannot drift apart. The database's CHECKs (migrations 001, 112) spell the same lists; a
 * migration that changes one changes the list here with it.
 */
import { z } from 'zod';

/** A call as the model sent it (`id` the provider's), or, once keyed, as the app runs it (`id` its row's own key). */
export interface ToolCall {
  id: string;
  name: string;
  /** The model's arguments as a JSON string (possibly malformed: the loop reports that to the model). */
  arguments: string;
}

/** A `ToolCall` on the bridge (cards, events): keyed by `tool_call_id`, the app's own key of the call. */
export const ToolCallWireFields = { tool_call_id: z.string(), name: z.string(), arguments: z.string() };

/**
 * A tool row's status: `queued` until the call's turn comes (the call before it in its round may be waiting for an
 * approval), then `running`, `pending` while a person decides, and one of the four ends. The core writes it and says
 * it with each event about the call; a card shows what the core said, never works it out.
 */
export const TOOL_STATUSES = ['queued', 'running', 'pending', 'done', 'failed', 'cancelled', 'rejected'] as const;
export const ToolStatusSchema = z.enum(TOOL_STATUSES);
export type ToolStatus = (typeof TOOL_STATUSES)[number];

/** The statuses of a call not yet ended (the partial index `chat_llm_tools_active`, migration 117, lists these). */
export const UNFINISHED_TOOL_STATUSES = ['queued', 'running', 'pending'] as const satisfies readonly ToolStatus[];
/** The four ends of a call. */
export const FINISHED_TOOL_STATUSES = [
  'done',
  'failed',
  'cancelled',
  'rejected',
] as const satisfies readonly ToolStatus[];

/** What a rule (or a decision) says of a call, weakest first: run it, ask a person, refuse it. */
export const RULE_ACTIONS = ['allow', 'require', 'deny'] as const;
export const RuleActionSchema = z.enum(RULE_ACTIONS);
export type RuleAction = (typeof RULE_ACTIONS)[number];

/**
 * The Inbox's calls and the global `inbox` event family (docs/chat-ui.md, docs/approval.md "Approval binding"): what
 * waits for the person (approvals and questions), their answers, and the events that keep every window's Inbox in
 * step. An answer names the arguments hash it was shown; a decided id cannot be replayed.
 */
import { z } from 'zod';
import { TOOL_CATEGORIES } from '../tool-names';
import { BYPASS_SCOPE_KINDS, BypassOptionSchema } from './approval';
import { defineCall, id, longText, shortText } from './define';
import { SANDBOX_CHOICES, SandboxLineSchema } from './sandbox';

export const InboxApprovalSchema = z.object({
  request_id: z.number(),
  session_id: z.number(),
  tool_call_id: z.string(),
  tool_name: z.string(),
  /** The full effective arguments as JSON, never truncated: what runs is exactly this (hash below). */
  arguments: z.string(),
  args_hash: z.string(),
  agent_id: z.string(),
  source: z.string(),
  context_label: z.string().nullable(),
  created_at: z.number(),
  tool_category: z.enum(TOOL_CATEGORIES).nullable(),
  mcp_server: z.string().nullable(),
  old_content: z.string().nullable(),
  new_content: z.string().nullable(),
  /** The tool's dry run refused this call (what it would answer instead of running); then there is no diff. */
  refusal: z.string().nullable(),
  /** False for an item re-registered after a restart that no turn is waiting on yet. */
  live: z.boolean(),
  /** The bypass scopes this call may be approved with, narrowest (the default) first. */
  bypass_options: z.array(BypassOptionSchema),
  /** Where a command runs (the card's sandbox line and its choices); null for a call that runs no command. */
  sandbox: SandboxLineSchema.nullable(),
});

export const InboxClarificationSchema = z.object({
  request_id: z.number(),
  session_id: z.number(),
  tool_call_id: z.string(),
  title: z.string(),
  question: z.string(),
  suggested_answers: z.array(z.string()),
  context_label: z.string().nullable(),
  created_at: z.number(),
});

export const inboxCalls = {
  'inbox:list': defineCall(
    z.object({}).strict(),
    z.object({
      total: z.number(),
      approvals: z.array(InboxApprovalSchema),
      clarifications: z.array(InboxClarificationSchema),
    }),
  ),
  /** Approve or reject one pending call. `argsHash` must be the hash that was shown; a decided id cannot be replayed. */
  'inbox:resolveApproval': defineCall(
    z
      .object({
        requestId: id,
        action: z.enum(['approve', 'reject']),
        note: shortText(4_000).default(''),
        argsHash: z.string().regex(/^[0-9a-f]{64}$/),
        /** 0 = until the session ends. Only with approve. */
        bypassSecs: z
          .number()
          .int()
          .min(0)
          .max(7 * 24 * 3600)
          .optional(),
        /** One of the item's `bypass_options`; absent = the first (narrowest). */
        bypassScope: z.enum(BYPASS_SCOPE_KINDS).optional(),
        /**
         * Only with approve, never with a bypass, only for a call that runs a command: this call alone runs with
         * network or outside the sandbox (docs/approval.md "The sandbox on the card").
         */
        sandbox: z.enum(SANDBOX_CHOICES).optional(),
      })
      .strict(),
    z.object({ tool_call_id: z.string(), session_id: z.number(), approved: z.boolean() }),
  ),
  'inbox:answerClarification': defineCall(
    z.object({ requestId: id, answer: longText(20_000) }).strict(),
    z.object({ tool_call_id: z.string(), session_id: z.number() }),
  ),
  /**
   * The person's reveal of a pending call's secret arguments (docs/plugins.md "Revealing a secret argument"): each
   * opened value with its path in the arguments. Only in this answer, never in an event. Refused for a request that
   * is not a pending approval, a tool without secret arguments, or a call that holds none.
   */
  'inbox:revealSecrets': defineCall(
    z.object({ requestId: id }).strict(),
    z.object({ values: z.array(z.object({ path: z.array(z.string()), value: z.string() })) }),
  ),
} as const;

export const InboxEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('approval_requested'),
    request_id: z.number(),
    tool_call_id: z.string(),
    tool_name: z.string(),
  }),
  z.object({
    type: z.literal('approval_resolved'),
    request_id: z.number(),
    tool_call_id: z.string(),
    approved: z.boolean(),
  }),
  z.object({ type: z.literal('clarification_requested'), request_id: z.number(), title: z.string() }),
  z.object({ type: z.literal('clarification_resolved'), request_id: z.number() }),
  /**
   * An approval or a question nobody answered was taken back (/stop, the turn's end, a newer request for the same
   * call): not a decision, so it is never reported as one. The row stays `pending` and is asked again on resume.
   */
  z.object({ type: z.literal('request_withdrawn'), request_id: z.number(), tool_call_id: z.string() }),
]);
export type InboxEvent = z.infer<typeof InboxEventSchema>;
export type InboxApproval = z.infer<typeof InboxApprovalSchema>;
export type InboxClarification = z.infer<typeof InboxClarificationSchema>;

/**
 * The approval gate's calls: the Security page's groups, rules, guards, tools, bypasses and decision log
 * (docs/approval.md, docs/ui.md); the Inbox's calls and events are in inbox.ts. Requests are strict and bounded;
 * the deeper checks (pattern syntax, a second catch-all, the default group) live in the main process and come back
 * as BridgeErrors with a readable message.
 */
import { z } from 'zod';
import { defineCall, id, longText, shortText } from './define';
import { TOOL_CATEGORIES } from '../tool-names';
import { TOOL_KINDS } from '../tool-traits';
import { RunContextSchema } from '../run-context';
import { SandboxDecisionSchema } from './sandbox';
import { RuleActionSchema } from '../tool-call';

const groupId = z.string().min(1).max(64);
const action = RuleActionSchema;
const okResponse = z.object({ ok: z.literal(true) });

export const ApprovalGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  created_at: z.number(),
  rule_count: z.number(),
  is_default: z.boolean(),
});

export const ApprovalRuleSchema = z.object({
  id: z.number(),
  group_id: z.string(),
  agent_id: z.string().nullable(),
  source: z.string().nullable(),
  tool_pattern: z.string(),
  path_pattern: z.string().nullable(),
  command_pattern: z.string().nullable(),
  action,
  /** An allow rule's grant of network to the commands it allows (docs/sandbox.md "The decision"). */
  network: z.boolean(),
  note: z.string().nullable(),
  priority: z.number(),
  created_at: z.number(),
});
export type ApprovalRuleDto = z.infer<typeof ApprovalRuleSchema>;

const ruleFields = {
  agent_id: shortText(64).nullable().optional(),
  source: shortText(64).nullable().optional(),
  tool_pattern: shortText(200),
  path_pattern: shortText(1_000).nullable().optional(),
  command_pattern: shortText(500).nullable().optional(),
  action,
  network: z.boolean().optional(),
  note: shortText(500).nullable().optional(),
  priority: z.number().int().optional(),
};

/** What made a decision (docs/approval.md "The why"). */
export const WHY_KINDS = ['guard', 'rule', 'bypass', 'fast_path', 'default', 'load_error', 'human'] as const;

/**
 * The one shape of a decision, from the gate to the card (docs/approval.md "The why"): the action, why (the kind,
 * the rule or guard, a sentence), and who decided — the policy (rules, guards, bypass, fast path) or the person.
 */
export const DecisionSchema = z.object({
  action,
  why: z.object({
    kind: z.enum(WHY_KINDS),
    ruleId: z.number().nullable().optional(),
    guard: z.string().optional(),
    text: z.string(),
  }),
  actor: z.enum(['policy', 'user']),
  /**
   * How an allowed command runs (docs/sandbox.md "The decision"): an allow rule's network grant, or the person's
   * choice on the card ("with network", "outside the sandbox"). Absent = sandboxed without network; a bypass never
   * sets it.
   */
  sandbox: SandboxDecisionSchema.optional(),
});
export type Decision = z.infer<typeof DecisionSchema>;
export type WhyKind = Decision['why']['kind'];

/**
 * The words a person reads for an action, everywhere: the Security page, the tool card, the decision log and the
 * gate's sentences (docs/approval.md "Rule names"). The stored enum keeps `require`.
 */
export const ACTION_WORDS: Readonly<Record<z.infer<typeof action>, string>> = {
  allow: 'Allow',
  require: 'Ask',
  deny: 'Deny',
};

/** What a rule's one name needs of it. */
export type NamedRule = Pick<
  ApprovalRuleDto,
  'id' | 'tool_pattern' | 'path_pattern' | 'command_pattern' | 'action' | 'agent_id' | 'source'
> & { network?: boolean };

/** A rule's one name, its stable id, written the same on the page, the card and the log: `rule 11`. */
export const ruleName = (id: number): string => `rule ${id}`;

/** A rule in the page's words: `Allow @fs_read docs/*`, `Allow execute_cmd $ npm install * with network`, `Ask *`. */
export function ruleWords(r: Omit<NamedRule, 'id'>): string {
  const bits = [ACTION_WORDS[r.action], r.tool_pattern];
  if (r.path_pattern) bits.push(r.path_pattern);
  if (r.command_pattern) bits.push(`$ ${r.command_pattern}`);
  if (r.network) bits.push('with network');
  if (r.agent_id) bits.push(`(agent ${r.agent_id})`);
  if (r.source) bits.push(`(source ${r.source})`);
  return bits.join(' ');
}

/** `rule 11: Ask *`: how every sentence names a rule. */
export const ruleLabel = (r: NamedRule): string => `${ruleName(r.id)}: ${ruleWords(r)}`;

const HUMAN_TEXT = 'Decided by you';
/** The sentence of a person's decision (`why.kind` 'human'), as the audit keeps it, with their note if they wrote one. */
export function humanDecisionText(note: string | null | undefined): string {
  return note ? `${HUMAN_TEXT}: ${note}` : `${HUMAN_TEXT}.`;
}
/** The person's note in that sentence, '' when there is none: a card that already says "by you" shows only this. */
export function humanDecisionNote(text: string): string {
  return text.startsWith(`${HUMAN_TEXT}: `) ? text.slice(HUMAN_TEXT.length + 2) : text === `${HUMAN_TEXT}.` ? '' : text;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const isSafeObject = (v: unknown, depth = 0): boolean => {
  if (v === null || typeof v !== 'object') return true;
  if (depth > 20) return false;
  const keys = Object.keys(v);
  return (
    keys.length <= 1_000 &&
    !keys.some((key) => FORBIDDEN_KEYS.has(key)) &&
    Object.values(v).every((x) => isSafeObject(x, depth + 1))
  );
};
/**
 * Tool arguments for "what would happen if…": a plain JSON object, bounded, with no prototype-pollution keys at any
 * depth. Checked on the raw input: a record schema would silently turn an own `__proto__` key into a prototype.
 */
const argsSchema = z.custom<Record<string, unknown>>(
  (v) =>
    typeof v === 'object' && v !== null && !Array.isArray(v) && isSafeObject(v) && JSON.stringify(v).length <= 200_000,
  { message: 'The arguments must be a JSON object under 200 kB without __proto__, constructor or prototype keys.' },
);

/** The scopes of a session bypass (docs/bypass.md), narrowest first. */
export const BYPASS_SCOPE_KINDS = ['tool_path', 'command', 'tool', 'category', 'mcp_server', 'all'] as const;

export const BypassScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool_path'), tool: z.string(), folder: z.string() }),
  z.object({ kind: z.literal('command'), commands: z.array(z.string()) }),
  z.object({ kind: z.literal('tool'), tool: z.string() }),
  z.object({ kind: z.literal('category'), category: z.enum(TOOL_CATEGORIES) }),
  z.object({ kind: z.literal('mcp_server'), server: z.string() }),
  z.object({ kind: z.literal('all') }),
]);

/** One choice a card offers: the scope and what it covers in words (code in backticks). */
export const BypassOptionSchema = z.object({ scope: BypassScopeSchema, label: z.string() });
export type BypassOptionDto = z.infer<typeof BypassOptionSchema>;

export const BypassSchema = z.object({
  id: z.number(),
  session_id: z.number(),
  scope: BypassScopeSchema,
  label: z.string(),
  expires_at: z.number().nullable(),
  granted_at: z.number(),
  /** The call whose approval granted it. */
  tool_call_id: z.string().nullable(),
});
export type BypassDto = z.infer<typeof BypassSchema>;

export const ToolInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  category: z.union([z.enum(TOOL_CATEGORIES), z.literal('dynamic')]).nullable(),
  /** What the tool says of its kind and arguments (shared/tool-traits.ts); null for one the core does not know. */
  traits: z
    .object({ kind: z.enum(TOOL_KINDS), pathKeys: z.array(z.string()), commandKey: z.string().nullable() })
    .nullable(),
});
export type ToolInfo = z.infer<typeof ToolInfoSchema>;

export const GuardRowSchema = z.object({
  id: z.string(),
  action: RuleActionSchema.exclude(['allow']),
  title: z.string(),
  description: z.string(),
  locked: z.literal(true),
});

export const RuleFieldSchema = z.enum([
  'tool_pattern',
  'path_pattern',
  'command_pattern',
  'action',
  'network',
  'priority',
  'agent_id',
  'source',
  'note',
  'group_id',
]);
export type RuleField = z.infer<typeof RuleFieldSchema>;
export const RuleProblemSchema = z.object({ field: RuleFieldSchema, code: z.string(), message: z.string() });
export type RuleProblem = z.infer<typeof RuleProblemSchema>;

export const DecisionLogEntrySchema = z.object({
  id: z.number(),
  tool_call_id: z.string(),
  session_id: z.number().nullable(),
  session_title: z.string().nullable(),
  tool_name: z.string().nullable(),
  /** The effective arguments as JSON (cut at 4,000 characters; `arguments_cut` says so). */
  arguments: z.string().nullable(),
  arguments_cut: z.boolean(),
  path: z.string().nullable(),
  command: z.string().nullable(),
  action,
  reason_kind: z.string(),
  rule_id: z.number().nullable(),
  detail: z.string(),
  actor: z.string(),
  /** How the command ran (docs/sandbox.md "The decision"); null for a call that runs no command. */
  sandbox: SandboxDecisionSchema.nullable(),
  created_at: z.number(),
});
export type DecisionLogEntry = z.infer<typeof DecisionLogEntrySchema>;

/** A rule "make a rule from this" suggests: what the rule form opens with (docs/ui.md "Decision log"). */
export const RuleSuggestionSchema = z.object({
  tool_pattern: z.string(),
  path_pattern: z.string().nullable(),
  command_pattern: z.string().nullable(),
  action,
  note: z.string(),
});
export type RuleSuggestion = z.infer<typeof RuleSuggestionSchema>;

export const CommandPreviewSchema = z.object({
  parsed: z.boolean(),
  /** Each simple command; `matches` is null without a pattern. */
  parts: z.array(z.object({ text: z.string(), matches: z.boolean().nullable() })),
  unsafe: z.array(z.string()),
  patternError: z.string().nullable(),
  /** Whether a rule with this pattern matches the whole command, per action (allow needs every part, no unsafe). */
  ruleMatches: z.object({ allow: z.boolean(), require: z.boolean(), deny: z.boolean() }).nullable(),
});

/** Calls only the Security page makes (docs/ui.md): dry-run validation, reordering, command preview, the log, session groups. */
const securityPageCalls = {
  /** The validation a create (no `id`) or update (`id`: merged over the stored rule) would run; writes nothing. */
  'approval:checkRule': defineCall(
    z
      .object({
        id: id.optional(),
        group_id: groupId.optional(),
        ...ruleFields,
        tool_pattern: ruleFields.tool_pattern.optional(),
        action: action.optional(),
      })
      .strict(),
    z.object({ problem: RuleProblemSchema.nullable() }),
  ),
  /** Every rule id of the group in the new order; priorities are rewritten to 10, 20, 30, … */
  'approval:reorderRules': defineCall(
    z.object({ groupId, ids: z.array(id).max(10_000) }).strict(),
    z.object({ rules: z.array(ApprovalRuleSchema) }),
  ),
  /** How the gate splits a command into parts and which parts a command pattern matches. */
  'approval:previewCommand': defineCall(
    z.object({ command: longText(20_000), pattern: shortText(500).optional(), sessionId: id.optional() }).strict(),
    CommandPreviewSchema,
  ),
  /** Recent decisions of every session, newest first; `query` matches tool, path, command, why and `rule 12`. */
  'approval:listDecisions': defineCall(
    z
      .object({
        query: shortText(200).optional(),
        action: action.optional(),
        limit: z.number().int().min(1).max(1_000).optional(),
      })
      .strict(),
    z.object({ decisions: z.array(DecisionLogEntrySchema) }),
  ),
  /**
   * The rules that would decide a logged call as it was decided: its action, covering every part that decided it
   * (one rule per command family for a shell command), a path relative to the session's working directory.
   */
  'approval:suggestRules': defineCall(
    z.object({ decisionId: id }).strict(),
    z.object({ rules: z.array(RuleSuggestionSchema), workingDir: z.string() }),
  ),
  'approval:sessionGroup': defineCall(z.object({ sessionId: id }).strict(), z.object({ groupId: z.string() })),
  /** The group a session's next calls are judged by. */
  'approval:setSessionGroup': defineCall(
    z.object({ sessionId: id, groupId }).strict(),
    z.object({ groupId: z.string() }),
  ),
} as const;

export const approvalCalls = {
  'approval:listGroups': defineCall(z.object({}).strict(), z.object({ groups: z.array(ApprovalGroupSchema) })),
  'approval:createGroup': defineCall(
    z.object({ id: groupId, name: shortText(100), description: shortText(1_000).optional() }).strict(),
    z.object({ group: ApprovalGroupSchema }),
  ),
  'approval:updateGroup': defineCall(
    z.object({ id: groupId, name: shortText(100).optional(), description: shortText(1_000).optional() }).strict(),
    z.object({ group: ApprovalGroupSchema }),
  ),
  /** Copies the group and all its rules in one transaction. */
  'approval:duplicateGroup': defineCall(
    z
      .object({ sourceId: groupId, id: groupId, name: shortText(100), description: shortText(1_000).optional() })
      .strict(),
    z.object({ group: ApprovalGroupSchema }),
  ),
  'approval:deleteGroup': defineCall(z.object({ id: groupId }).strict(), okResponse),
  'approval:listRules': defineCall(
    z.object({ groupId: groupId.optional() }).strict(),
    z.object({ rules: z.array(ApprovalRuleSchema) }),
  ),
  'approval:createRule': defineCall(
    z.object({ group_id: groupId.optional(), ...ruleFields }).strict(),
    z.object({ rule: ApprovalRuleSchema }),
  ),
  'approval:updateRule': defineCall(
    z
      .object({
        id,
        group_id: groupId.optional(),
        ...ruleFields,
        tool_pattern: ruleFields.tool_pattern.optional(),
        action: action.optional(),
      })
      .strict(),
    z.object({ rule: ApprovalRuleSchema }),
  ),
  'approval:deleteRule': defineCall(z.object({ id }).strict(), okResponse),
  /** What would happen if this call were made now: the decision and every step that led to it. Writes nothing. */
  'approval:explain': defineCall(
    z
      .object({
        toolName: shortText(200),
        args: argsSchema,
        groupId: groupId.optional(),
        sessionId: id.optional(),
        agentId: shortText(64).optional(),
        source: shortText(64).optional(),
        category: z.enum(TOOL_CATEGORIES).nullable().optional(),
        runContext: RunContextSchema.strict().optional(),
      })
      .strict(),
    z.object({ decision: DecisionSchema, trace: z.array(z.string()), hidden: z.boolean() }),
  ),
  /**
   * What the gate would decide now for the file tools reading and writing one path (the File System panel): a call of
   * the first file tool of each kind, `read` and `edit`, as the tools' traits say (docs/tools.md). Writes nothing.
   */
  'approval:explainFileAccess': defineCall(
    z.object({ path: shortText(4_096), sessionId: id.optional() }).strict(),
    z.object({ read: DecisionSchema, write: DecisionSchema }),
  ),
  /** The hard guards, shown as locked rows. */
  /** Every tool a rule can name (docs/tools.md): built-in + synthetic, MCP, and any seen once (`dynamic`). */
  'approval:listTools': defineCall(
    z.object({}).strict(),
    z.object({ built_in: z.array(ToolInfoSchema), mcp: z.array(ToolInfoSchema), dynamic: z.array(ToolInfoSchema) }),
  ),
  'approval:listGuards': defineCall(z.object({}).strict(), z.object({ guards: z.array(GuardRowSchema) })),
  'approval:listBypasses': defineCall(
    z.object({ sessionId: id.optional() }).strict(),
    z.object({ bypasses: z.array(BypassSchema) }),
  ),
  /** Revokes one bypass (`id`) or every bypass of the session. */
  'approval:revokeBypasses': defineCall(
    z.object({ sessionId: id, id: id.optional() }).strict(),
    z.object({ revoked: z.number() }),
  ),
  ...securityPageCalls,
} as const;

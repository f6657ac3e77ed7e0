/**
 * What a valid approval rule or permission group is (docs/approval.md "Rules"): their shapes and the validation
 * every write of the rules repository (rules-repository.ts) runs first, so that bad input (an invalid pattern,
 * priority or group, a second catch-all `*` with another action) is refused with a BridgeError naming the field,
 * and nothing is written. The Security page's dry run (`checkRule`) runs the same checks.
 */
import { ACTION_WORDS, ruleName } from '../../../shared/contract/approval';
import { BridgeError } from '../../../shared/contract/define';
import type { ToolTraits } from '../../../shared/tool-traits';
import type { Db } from '../db/database';
import {
  AGENT_ID,
  GROUP_ID,
  SOURCE_ID,
  commandPatternError,
  normalizePathPattern,
  pathPatternError,
  priorityError,
  toolPatternError,
  RULE_ACTIONS,
  type RuleAction,
} from './patterns';

export const DEFAULT_GROUP = 'default';

export interface ApprovalGroup {
  id: string;
  name: string;
  description: string;
  created_at: number;
}

export interface ApprovalRule {
  id: number;
  group_id: string;
  agent_id: string | null;
  source: string | null;
  tool_pattern: string;
  path_pattern: string | null;
  command_pattern: string | null;
  action: RuleAction;
  /** An allow rule's grant of network to the commands it allows (docs/sandbox.md "The decision"). */
  network: boolean;
  note: string | null;
  priority: number;
  created_at: number;
}

export type RuleInput = {
  group_id?: string;
  agent_id?: string | null;
  source?: string | null;
  tool_pattern: string;
  path_pattern?: string | null;
  command_pattern?: string | null;
  action: RuleAction;
  network?: boolean;
  note?: string | null;
  priority?: number;
};

/** The rule fields a refusal can point at. */
export type RuleField =
  | 'tool_pattern'
  | 'path_pattern'
  | 'command_pattern'
  | 'action'
  | 'network'
  | 'priority'
  | 'agent_id'
  | 'source'
  | 'note'
  | 'group_id';
export interface RuleProblem {
  field: RuleField;
  code: string;
  message: string;
}

/** A refused rule: crosses the bridge as a plain BridgeError; `field` serves `checkRule`. */
export class RuleFieldError extends BridgeError {
  constructor(
    code: string,
    readonly field: RuleField,
    message: string,
  ) {
    super(code, message);
  }
}

const invalid = (message: string) => new BridgeError('invalid_input', message);

/** A catch-all: `*` with nothing else narrowing it. A group holds at most one action for it; the gate treats it as the group's fallback. */
export const isCatchAll = (
  r: Pick<ApprovalRule, 'tool_pattern' | 'path_pattern' | 'command_pattern' | 'agent_id' | 'source'>,
) => r.tool_pattern === '*' && !r.path_pattern && !r.command_pattern && !r.agent_id && !r.source;

/** What the checks that look beyond the rule itself read: the tools' traits, the groups, the group's other rules. */
export interface RuleContext {
  db: Db;
  traitsOf: (name: string) => ToolTraits | null;
  groupExists: (groupId: string) => boolean;
}

/**
 * Network is granted to the commands an allow rule names (`execute_cmd allow $ npm install *` with network), never
 * to a whole tool or a catch-all: an ask or a deny runs nothing, and a grant without a command pattern would open
 * the network to every command the rule allows.
 */
function networkGrantError(
  rule: Pick<ApprovalRule, 'action' | 'command_pattern'>,
  namesCommandTool: boolean,
): string | null {
  if (rule.action !== 'allow') return 'Only an allow rule can grant network to the commands it allows.';
  if (!namesCommandTool || !rule.command_pattern)
    return 'Network is granted to commands: give the rule a tool that runs commands (execute_cmd) and a command pattern (npm install *).';
  return null;
}

/**
 * Whether a rule's tool pattern names one tool that declares a shell command argument (its traits' `commandKey`,
 * src/shared/tool-traits.ts): the only rules a command pattern, and so a network grant, applies to. A glob or a group
 * names no one tool; a tool the core does not know (an MCP tool) declares nothing.
 */
const namesCommandTool = (toolPattern: string, traitsOf: (name: string) => ToolTraits | null): boolean =>
  (traitsOf(toolPattern)?.commandKey ?? null) !== null;

/** A group as it will be written: a valid id, a trimmed name and description. Throws a BridgeError. */
export function validGroup(
  input: { id: string; name: string; description?: string },
  createdAt = Date.now(),
): ApprovalGroup {
  if (!GROUP_ID.test(input.id))
    throw invalid(
      `The group id "${input.id}" must be 1–64 lower-case letters, digits, - or _, starting with a letter or digit.`,
    );
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) throw invalid('The group name must be 1–100 characters.');
  const description = (input.description ?? '').trim();
  if (description.length > 1_000) throw invalid('The group description is longer than 1000 characters.');
  return { id: input.id, name, description, created_at: createdAt };
}

/**
 * The rule a create or update (`selfId`: the rule it replaces) would write, trimmed and normalized; throws a
 * RuleFieldError (a BridgeError) naming the first field that is wrong. `groupExists` and `db` answer the checks
 * that look at the other rows: the group, and the group's one catch-all.
 */
export function validRule(input: RuleInput, selfId: number | null, ctx: RuleContext): Omit<ApprovalRule, 'id'> {
  const blank = (v: string | null | undefined) => (v === undefined || v === null || v.trim() === '' ? null : v.trim());
  const rule: Omit<ApprovalRule, 'id'> = {
    group_id: input.group_id ?? DEFAULT_GROUP,
    agent_id: blank(input.agent_id),
    source: blank(input.source),
    tool_pattern: input.tool_pattern.trim(),
    path_pattern: blank(input.path_pattern),
    command_pattern: blank(input.command_pattern),
    action: input.action,
    network: input.network === true,
    note: blank(input.note),
    priority: input.priority ?? 100,
    created_at: Date.now(),
  };
  const fail = (field: RuleField, message: string | null, code = 'invalid_input') => {
    if (message) throw new RuleFieldError(code, field, message);
  };
  fail(
    'action',
    RULE_ACTIONS.includes(rule.action)
      ? null
      : `The action must be require, allow or deny, not "${String(rule.action)}".`,
  );
  fail('tool_pattern', toolPatternError(rule.tool_pattern));
  fail('path_pattern', rule.path_pattern ? pathPatternError(rule.path_pattern) : null);
  fail('command_pattern', rule.command_pattern ? commandPatternError(rule.command_pattern) : null);
  fail('priority', priorityError(rule.priority));
  if (rule.path_pattern) rule.path_pattern = normalizePathPattern(rule.path_pattern);
  const commandTool = namesCommandTool(rule.tool_pattern, ctx.traitsOf);
  fail(
    'command_pattern',
    rule.command_pattern && !commandTool
      ? 'A command pattern only applies to rules whose tool pattern is a tool that runs commands (execute_cmd).'
      : null,
  );
  fail('network', rule.network ? networkGrantError(rule, commandTool) : null);
  fail(
    'agent_id',
    rule.agent_id && !AGENT_ID.test(rule.agent_id)
      ? `The agent id "${rule.agent_id}" may hold letters, digits, - and _ (1–64).`
      : null,
  );
  fail(
    'source',
    rule.source && !SOURCE_ID.test(rule.source)
      ? `The source "${rule.source}" must be lower-case, like web or cron.`
      : null,
  );
  fail('note', rule.note && rule.note.length > 500 ? 'The note is longer than 500 characters.' : null);
  fail(
    'group_id',
    ctx.groupExists(rule.group_id) ? null : `There is no permission group "${rule.group_id}".`,
    'not_found',
  );
  if (isCatchAll(rule)) {
    const other = ctx.db
      .prepare(`SELECT id, action FROM approval_rules WHERE group_id = ? AND tool_pattern = '*' AND path_pattern IS NULL AND command_pattern IS NULL
                AND agent_id IS NULL AND source IS NULL AND action != ? AND id != ?`)
      .get(rule.group_id, rule.action, selfId ?? -1) as { id: number; action: RuleAction } | undefined;
    fail(
      'tool_pattern',
      other
        ? `The group already has a catch-all "*" rule (${ruleName(other.id)}: ${ACTION_WORDS[other.action]} *); change that one instead.`
        : null,
      'conflict',
    );
  }
  return rule;
}

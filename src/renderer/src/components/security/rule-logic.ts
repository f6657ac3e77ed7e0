/**
 * Pure helpers of the Security page (docs/ui.md): the order rules are shown in (the order the gate reads them),
 * the priority a new rule gets, what a drafted rule sends, and the draft of a rule the core suggests.
 * No bridge calls here, so every piece is unit-tested without a DOM.
 */
import type { ApprovalRuleDto, RuleSuggestion } from '../../../../shared/contract/approval';
import type { RuleAction } from '../../../../shared/tool-call';

export type { RuleAction };

/** What the rule form edits: every field a string, as typed. */
export interface RuleDraft {
  tool_pattern: string;
  path_pattern: string;
  command_pattern: string;
  action: RuleAction;
  /** An allow rule's grant of network to the commands it allows (docs/sandbox.md "The decision"). */
  network: boolean;
  note: string;
  priority: string;
}

export const emptyDraft = (): RuleDraft => ({
  tool_pattern: '',
  path_pattern: '',
  command_pattern: '',
  action: 'allow',
  network: false,
  note: '',
  priority: '',
});

export function draftOf(rule: ApprovalRuleDto): RuleDraft {
  return {
    tool_pattern: rule.tool_pattern,
    path_pattern: rule.path_pattern ?? '',
    command_pattern: rule.command_pattern ?? '',
    action: rule.action,
    network: rule.network,
    note: rule.note ?? '',
    priority: String(rule.priority),
  };
}

/**
 * The request fields of a draft. Blank texts are sent as null (the core clears them); a priority that is not a
 * whole number is sent as typed so that the core's refusal, not a guess here, says what is wrong.
 */
export function draftFields(d: RuleDraft): {
  tool_pattern: string;
  path_pattern: string | null;
  command_pattern: string | null;
  action: RuleAction;
  network: boolean;
  note: string | null;
  priority?: number;
} {
  const text = (v: string) => (v.trim() === '' ? null : v);
  const priority = d.priority.trim() === '' ? undefined : Number(d.priority);
  return {
    tool_pattern: d.tool_pattern,
    path_pattern: text(d.path_pattern),
    command_pattern: text(d.command_pattern),
    action: d.action,
    network: d.network,
    note: text(d.note),
    ...(priority !== undefined ? { priority: Number.isFinite(priority) ? priority : 0.5 } : {}),
  };
}

/** A catch-all: `*` with nothing narrowing it; the gate consults it only when no other rule matches. */
export const isCatchAll = (r: ApprovalRuleDto) =>
  r.tool_pattern === '*' && !r.path_pattern && !r.command_pattern && !r.agent_id && !r.source;

/** Which part of the list a rule sits in (docs/approval.md "Evaluation order"). */
export type RuleSection = RuleAction | 'fallback';
export const sectionOf = (r: ApprovalRuleDto): RuleSection => (isCatchAll(r) ? 'fallback' : r.action);
const SECTION_RANK: Record<RuleSection, number> = { deny: 0, require: 1, allow: 2, fallback: 3 };

export const SECTION_LABELS: Record<RuleSection, { title: string; hint: string }> = {
  deny: { title: 'Deny', hint: 'A matching deny always wins.' },
  require: { title: 'Ask', hint: 'A matching ask beats any allow.' },
  allow: { title: 'Allow', hint: 'Runs without asking when no deny or ask matches.' },
  fallback: { title: 'When nothing else matches', hint: 'The catch-all.' },
};

/**
 * The order the gate reads one group's rules in (docs/approval.md): deny beats ask beats allow whatever the
 * priorities; priority (then the older rule) orders rules of the same action; the catch-all comes last, as the
 * fallback.
 */
export function evaluationOrder(rules: readonly ApprovalRuleDto[]): ApprovalRuleDto[] {
  return [...rules].sort(
    (a, b) => SECTION_RANK[sectionOf(a)] - SECTION_RANK[sectionOf(b)] || a.priority - b.priority || a.id - b.id,
  );
}

/** A new rule goes first among its group's rules (of its action, where priority matters), as written last. */
export function topPriority(rules: readonly ApprovalRuleDto[]): number {
  if (rules.length === 0) return 100;
  return Math.max(-1_000_000, Math.min(...rules.map((r) => r.priority)) - 10);
}

/**
 * The ids in their new order after moving one rule up or down within its section (priority only orders rules of
 * the same action); null when it cannot move that way. `rules` is in evaluation order.
 */
export function moved(rules: readonly ApprovalRuleDto[], id: number, direction: -1 | 1): number[] | null {
  const order = rules.map((r) => r.id);
  const i = order.indexOf(id);
  const j = i + direction;
  if (i < 0 || j < 0 || j >= order.length || sectionOf(rules[i]!) !== sectionOf(rules[j]!)) return null;
  const next = [...order];
  [next[i], next[j]] = [next[j]!, next[i]!];
  return next;
}

/** The form's draft of a rule the core suggested ("make a rule from this": approval/suggest-rules.ts). */
export function draftOfSuggestion(r: RuleSuggestion): RuleDraft {
  return {
    ...emptyDraft(),
    tool_pattern: r.tool_pattern,
    path_pattern: r.path_pattern ?? '',
    command_pattern: r.command_pattern ?? '',
    action: r.action,
    note: r.note,
  };
}

/** A group id from a name a person typed: `Client work` → `client-work`, unique among `taken`. */
export function groupIdFor(name: string, taken: readonly string[]): string {
  const base =
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 56) || 'group';
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

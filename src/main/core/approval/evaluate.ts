/**
 * Rule matching, pure (docs/approval.md "Evaluation order"): which rule decides a call.
 * - Every rule of the candidate lists (the session's group, then `default`) that matches the call takes part.
 *   The strongest action wins: deny beats require ("ask") beats allow, whatever the priorities or the order.
 *   Among rules of the winning action the first by list, then priority, then id is the one named in the "why".
 * - A catch-all (`*` with nothing narrowing it) is the group's fallback, not a competitor: it decides only when no
 *   other rule matches (the session group's catch-all before `default`'s). Otherwise the seeded `require *` would
 *   out-rank every allow rule.
 * - agent_id / source: null matches any.
 * - A rule with a path pattern never matches a call without a (workspace-relative or absolute) path.
 * - A rule with a command pattern matches only `execute_cmd` calls. The gate evaluates a compound command part by
 *   part (one part in `shell.parts` per call of `decidingRule`); given several parts, an allow needs *every* part to
 *   match and a deny/require *one* (a deny on `rm *` must catch `git status && rm -rf x`).
 *   `matchRules` joins the parts' verdicts (X3): any part denied → deny; every part allowed → allow; else the
 *   first part that asks decides.
 * - An allow rule never matches a command with unsafe constructs (substitution, `bash -c`, a redirect out of the
 *   workspace, a parse failure, …): such a command always asks unless a deny or a human's bypass decides.
 */
import { ruleLabel } from '../../../shared/contract/approval';
import { isCatchAll } from './rule-checks';
import type { CompiledRule } from './rules-repository';
import type { RuleAction } from './patterns';
import type { PathFacts } from './patterns';
import type { ShellAnalysis } from './shell';

export interface CallFacts {
  toolName: string;
  agentId: string;
  source: string;
  path: PathFacts | null;
  /** Present for `execute_cmd` only. */
  shell: ShellAnalysis | null;
}

/** deny > require > allow (docs/approval.md "Deny beats allow"). */
export const STRENGTH: Readonly<Record<RuleAction, number>> = { deny: 3, require: 2, allow: 1 };

export function ruleMatches(c: CompiledRule, f: CallFacts): boolean {
  const r = c.rule;
  if (r.agent_id !== null && r.agent_id !== f.agentId) return false;
  if (r.source !== null && r.source !== f.source) return false;
  if (!c.tool(f.toolName)) return false;
  if (c.path && (f.path === null || !c.path(f.path))) return false;
  if (r.action === 'allow' && f.shell && f.shell.unsafe.length > 0) return false;
  if (c.command) {
    if (!f.shell || f.shell.parts.length === 0) return false;
    return r.action === 'allow' ? f.shell.parts.every(c.command) : f.shell.parts.some(c.command);
  }
  return true;
}

export interface RuleVerdict {
  /** The rule that decides, or null when nothing matched (not even a catch-all). */
  rule: CompiledRule | null;
  /** True when the deciding rule is a catch-all fallback (no specific rule matched). */
  isFallback: boolean;
  /** The matching rules of weaker actions that the deciding rule beat, for the "why". */
  beaten: CompiledRule[];
}

/** The deciding rule among all that match (lists in order: session group, then default; each priority then id). */
export function decidingRule(lists: readonly (readonly CompiledRule[])[], f: CallFacts): RuleVerdict {
  let best: CompiledRule | null = null;
  let fallback: CompiledRule | null = null;
  const matched: CompiledRule[] = [];
  for (const list of lists) {
    for (const c of list) {
      if (!ruleMatches(c, f)) continue;
      if (isCatchAll(c.rule)) {
        fallback ??= c;
        continue;
      }
      matched.push(c);
      // Strictly stronger replaces; an equal one keeps the earlier (list, priority, id) rule.
      if (best === null || STRENGTH[c.rule.action] > STRENGTH[best.rule.action]) best = c;
    }
  }
  if (best === null) return { rule: fallback, isFallback: fallback !== null, beaten: [] };
  const winner = best;
  return {
    rule: winner,
    isFallback: false,
    beaten: matched.filter((c) => STRENGTH[c.rule.action] < STRENGTH[winner.rule.action]),
  };
}

/**
 * Visibility (docs/approval.md "Visibility"): hidden when every call of this tool would be denied by the rules,
 * i.e. a rule without path or command pattern (and not narrowed to another agent or source) denies it, or the
 * fallback catch-all is deny and no other rule could match the tool at all. Returns the rule that hides it.
 */
export function hidingRule(
  lists: readonly (readonly CompiledRule[])[],
  toolName: string,
  who?: { agentId: string; source: string },
): CompiledRule | null {
  let fallback: CompiledRule | null = null;
  let otherMayMatch = false;
  for (const list of lists) {
    for (const c of list) {
      const r = c.rule;
      if (!c.tool(toolName)) continue;
      // Without a caller to compare, a rule narrowed to an agent or source says nothing about everyone.
      const narrowedAway =
        (r.agent_id !== null && r.agent_id !== who?.agentId) || (r.source !== null && r.source !== who?.source);
      if (isCatchAll(r)) {
        fallback ??= c;
        continue;
      }
      if (!c.path && !c.command && !narrowedAway && r.action === 'deny') return c;
      otherMayMatch = true;
    }
  }
  return fallback?.rule.action === 'deny' && !otherMayMatch ? fallback : null;
}

/**
 * The deciding rule for the call; for a shell command, for each of its parts (X3): any part denied → that deny;
 * every part allowed (each by its own deciding rule) → allow; otherwise the first part that asks decides.
 */
export function matchRules(
  lists: CompiledRule[][],
  facts: CallFacts,
): { verdict: RuleVerdict; allowedBy: CompiledRule[] } {
  const shell = facts.shell;
  if (!shell || shell.parts.length <= 1) {
    const verdict = decidingRule(lists, facts);
    return { verdict, allowedBy: verdict.rule?.rule.action === 'allow' ? [verdict.rule] : [] };
  }
  const verdicts = shell.parts.map((part) => decidingRule(lists, { ...facts, shell: { ...shell, parts: [part] } }));
  const denied = verdicts.find((v) => v.rule?.rule.action === 'deny');
  if (denied) return { verdict: denied, allowedBy: [] };
  if (verdicts.every((v) => v.rule?.rule.action === 'allow'))
    return { verdict: verdicts[0]!, allowedBy: verdicts.map((v) => v.rule!) };
  return { verdict: verdicts.find((v) => v.rule?.rule.action !== 'allow')!, allowedBy: [] };
}

/** " (beats allow rule 3: …)": the weaker matching rules the deciding one out-ranked, for the card's "why". */
export function beatenText(beaten: readonly CompiledRule[]): string {
  if (beaten.length === 0) return '';
  const shown = beaten.slice(0, 3).map((b) => ruleLabel(b.rule));
  return ` (beats ${shown.join('; ')}${beaten.length > 3 ? `; ${beaten.length - 3} more` : ''})`;
}

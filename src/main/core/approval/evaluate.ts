/**
 * Rule matching, pure (reference-facts.md §3, SPEC.md §4): which rule of an ordered list is the first to match a
 * call. The lists arrive already ordered (the session's group, then `default`; each by priority then id).
 * - agent_id / source: null matches any.
 * - A rule with a path pattern never matches a call without a (workspace-relative or absolute) path.
 * - A rule with a command pattern matches only `execute_cmd` calls. The gate evaluates a compound command part
 *   by part (one part in `shell.parts` per call of `firstMatch`); given several parts, an allow needs *every* part
 *   to match and a deny/require *one* (a deny on `rm *` must catch `git status && rm -rf x`).
 * - An allow rule never matches a command with unsafe constructs (substitution, `bash -c`, a redirect out of the
 *   workspace, a parse failure, …): such a command always asks unless a deny or a human's bypass decides.
 */
import type { CompiledRule } from './rules-repository';
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

export function firstMatch(lists: readonly (readonly CompiledRule[])[], f: CallFacts): CompiledRule | null {
  for (const list of lists) for (const c of list) if (ruleMatches(c, f)) return c;
  return null;
}

/** Visibility (SPEC.md §3.3): the first rule for this name that has no path or command pattern decides. */
export function firstPathlessMatch(lists: readonly (readonly CompiledRule[])[], toolName: string, who?: { agentId: string; source: string }): CompiledRule | null {
  for (const list of lists) {
    for (const c of list) {
      const r = c.rule;
      if (c.path || c.command) continue;
      // Without a caller to compare, a rule narrowed to an agent or source says nothing about everyone.
      if (r.agent_id !== null && r.agent_id !== who?.agentId) continue;
      if (r.source !== null && r.source !== who?.source) continue;
      if (c.tool(toolName)) return c;
    }
  }
  return null;
}

/** `@fs_read allow docs/*`, `execute_cmd allow $ git *` — the short form the tool card shows. */
export function describeRule(r: CompiledRule['rule']): string {
  const bits = [r.tool_pattern, r.action];
  if (r.path_pattern) bits.push(r.path_pattern);
  if (r.command_pattern) bits.push(`$ ${r.command_pattern}`);
  if (r.agent_id) bits.push(`(agent ${r.agent_id})`);
  if (r.source) bits.push(`(source ${r.source})`);
  return bits.join(' ');
}

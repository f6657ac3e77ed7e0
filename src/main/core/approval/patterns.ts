/**
 * The three pattern languages of approval rules (docs/approval.md "Rules", docs/shell-analysis.md), each with a
 * validator that says in one sentence what is wrong and a matcher compiled once per rule.
 * - tool_pattern: exact name, `*`, trailing `*` (`mcp__gmail__*`), or a group `@fs_read` / `@fs_write` / `@fs_any`.
 * - path_pattern: matched against the canonical path; relative patterns against the workspace-relative form,
 *   absolute ones (`/…`, `C:/…`) against the absolute form. `<dir>/*` = the directory and its subtree on a `/`
 *   boundary; other forms are exact or trailing-`*` prefix. Deny/require patterns compare case-insensitively
 *   (a deny must also catch `Private/x` on macOS); allow patterns compare exactly (an allow must never widen).
 * - command_pattern: exact or trailing `*`; `git *` also matches a bare `git`.
 * Limits: `*` only at the end (no globs in the middle); no `..` in path patterns.
 */
import { isFileTool, type ToolTraits } from '../../../shared/tool-traits';

export { RULE_ACTIONS, type RuleAction } from '../../../shared/tool-call';

/** The tool groups, by what the tools say they are (docs/tools.md "One tool shape"): the file tools that read, edit, either. */
export const TOOL_GROUPS: Readonly<Record<string, (tool: ToolTraits | null) => boolean>> = {
  '@fs_read': (t) => isFileTool(t) && t!.kind === 'read',
  '@fs_write': (t) => isFileTool(t) && t!.kind === 'edit',
  '@fs_any': isFileTool,
};

const TOOL_NAME = /^[A-Za-z0-9_.-]+$/;
// Control characters, including newlines and the zero-width / bidi marks that hide text in a rule list.
const HIDDEN_CHARS = /[\u0000-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

export const PRIORITY_MIN = -1_000_000;
export const PRIORITY_MAX = 1_000_000;

/** Returns an error sentence, or null when the tool pattern is valid. */
export function toolPatternError(pattern: string): string | null {
  if (pattern === '*' || pattern in TOOL_GROUPS) return null;
  if (pattern.length === 0) return 'The tool pattern is empty.';
  if (pattern.length > 200) return 'The tool pattern is longer than 200 characters.';
  if (pattern.startsWith('@')) return `Unknown tool group "${pattern}"; use @fs_read, @fs_write or @fs_any.`;
  const body = pattern.endsWith('*') ? pattern.slice(0, -1) : pattern;
  if (!TOOL_NAME.test(body)) return `The tool pattern "${pattern}" may hold letters, digits, _ . - and one trailing *.`;
  return null;
}

export function compileToolPattern(
  pattern: string,
  traitsOf: (name: string) => ToolTraits | null,
): (name: string) => boolean {
  if (pattern === '*') return () => true;
  const group = TOOL_GROUPS[pattern];
  if (group) return (name) => group(traitsOf(name));
  if (pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return (name) => name.startsWith(prefix);
  }
  return (name) => name === pattern;
}

const ABSOLUTE = /^(\/|[A-Za-z]:\/)/;

export function pathPatternError(pattern: string): string | null {
  if (pattern.length === 0) return 'The path pattern is empty.';
  if (pattern.length > 1_000) return 'The path pattern is longer than 1000 characters.';
  if (HIDDEN_CHARS.test(pattern)) return 'The path pattern contains control or invisible characters.';
  if (pattern.includes('\\')) return 'Write path patterns with / separators.';
  const star = pattern.indexOf('*');
  if (star !== -1 && star !== pattern.length - 1) return `In "${pattern}" a * may only stand at the end.`;
  const parts = normalizePathPattern(pattern).split('/');
  if (parts.some((p) => p === '..')) return `The path pattern "${pattern}" may not contain "..".`;
  return null;
}

/** `./docs/*` → `docs/*`; `a//b` → `a/b`; a trailing `/` on a directory is dropped. */
export function normalizePathPattern(pattern: string): string {
  let p = pattern.replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

export interface PathFacts {
  /** Workspace-relative, `/`-separated, '' for the workspace itself; null when the path is outside it. */
  rel: string | null;
  /** Canonical absolute path with `/` separators. */
  abs: string;
  /** The same two in lower case, computed once per decision (a thousand rules must not each allocate them). */
  relLower: string | null;
  absLower: string;
}

export type PathMatcher = (facts: PathFacts) => boolean;

export function pathFacts(rel: string | null, abs: string): PathFacts {
  return { rel, abs, relLower: rel === null ? null : rel.toLowerCase(), absLower: abs.toLowerCase() };
}

export function compilePathPattern(pattern: string, caseInsensitive: boolean): PathMatcher {
  const norm = normalizePathPattern(pattern);
  const want = caseInsensitive ? norm.toLowerCase() : norm;
  const isAbs = ABSOLUTE.test(norm);
  const pick = caseInsensitive
    ? (f: PathFacts): string | null => (isAbs ? f.absLower : f.relLower)
    : (f: PathFacts): string | null => (isAbs ? f.abs : f.rel);
  if (norm === '*') return () => true;
  if (want.endsWith('/*')) {
    const dir = want.slice(0, -2);
    const prefix = dir === '/' ? '/' : `${dir}/`;
    return (f) => {
      const v = pick(f);
      return v !== null && (v === dir || v.startsWith(prefix));
    };
  }
  if (want.endsWith('*')) {
    const prefix = want.slice(0, -1);
    return (f) => {
      const v = pick(f);
      return v !== null && v.startsWith(prefix);
    };
  }
  return (f) => pick(f) === want;
}

export function commandPatternError(pattern: string): string | null {
  if (pattern.trim().length === 0) return 'The command pattern is empty.';
  if (pattern.length > 500) return 'The command pattern is longer than 500 characters.';
  if (HIDDEN_CHARS.test(pattern)) return 'The command pattern contains newlines, control or invisible characters.';
  const star = pattern.indexOf('*');
  if (star !== -1 && star !== pattern.length - 1) return `In "${pattern}" a * may only stand at the end.`;
  return null;
}

/** Matches one simple command (its words joined by single spaces). */
export function compileCommandPattern(pattern: string): (part: string) => boolean {
  const p = pattern.trim() === '*' ? '*' : pattern.replace(/\s+/g, ' ').trimStart();
  if (p === '*') return () => true;
  if (p.endsWith('*')) {
    const prefix = p.slice(0, -1);
    const bare = prefix.trimEnd();
    // `git *` covers `git` itself: the space marks a word boundary, not a required argument.
    return (part) => part.startsWith(prefix) || (prefix.endsWith(' ') && part === bare);
  }
  return (part) => part === p;
}

export function priorityError(priority: unknown): string | null {
  if (typeof priority !== 'number' || !Number.isInteger(priority)) return 'The priority must be a whole number.';
  if (priority < PRIORITY_MIN || priority > PRIORITY_MAX)
    return `The priority must lie between ${PRIORITY_MIN} and ${PRIORITY_MAX}.`;
  return null;
}

export const GROUP_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const AGENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const SOURCE_ID = /^[a-z][a-z0-9-]{0,63}$/;

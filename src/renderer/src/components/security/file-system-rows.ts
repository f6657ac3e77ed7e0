/**
 * The File System panel's model (docs/ui.md): one row per path, read from and written as ordinary rules of the
 * file tool groups, so the panel and the rule list can never disagree.
 *   read  = allow @fs_read P  + ask @fs_write P
 *   write = allow @fs_any P
 *   ask   = ask @fs_any P
 *   deny  = deny @fs_any P
 * Any other mix of file rules on a path shows as "custom" (edit it in the rule list). Rows are ordered deeper paths
 * first, then the default row (file rules without a path; only "not set", read or write: a path-less ask or deny
 * would beat every row's allow). The gate's order holds across rows (docs/approval.md): deny beats ask beats
 * allow, so a deeper row can narrow a parent (deny `notes/private/` under a writable `notes/`) but not widen a
 * parent's ask or deny. Priorities only order rows of the same action, deeper paths first.
 */
import type { ApprovalRuleDto } from '../../../../shared/contract/approval';

export type FsLevel = 'read' | 'write' | 'ask' | 'deny';
export type FsRowLevel = FsLevel | 'custom' | 'unset';

export interface FsRow {
  /** null = the default row (any other path). */
  path: string | null;
  level: FsRowLevel;
  rules: ApprovalRuleDto[];
}

const FS_GROUPS = new Set(['@fs_read', '@fs_write', '@fs_any']);

export const FS_LEVEL_LABELS: Record<FsRowLevel, string> = {
  read: 'Read only',
  write: 'Read and write',
  ask: 'Ask',
  deny: 'Deny',
  custom: 'Custom',
  unset: 'Not set',
};

/** A file rule the panel owns: a file tool group, no command, agent or source. */
export const isFsRule = (r: ApprovalRuleDto) =>
  FS_GROUPS.has(r.tool_pattern) && !r.command_pattern && !r.agent_id && !r.source;

const depth = (path: string) => path.replace(/\/\*$/, '').split('/').filter(Boolean).length;

export function levelOf(rules: readonly ApprovalRuleDto[]): FsRowLevel {
  const key = rules
    .map((r) => `${r.tool_pattern}:${r.action}`)
    .sort()
    .join(',');
  switch (key) {
    case '@fs_read:allow,@fs_write:require':
    case '@fs_read:allow':
      return 'read';
    case '@fs_any:allow':
      return 'write';
    case '@fs_any:require':
      return 'ask';
    case '@fs_any:deny':
      return 'deny';
    default:
      return rules.length === 0 ? 'unset' : 'custom';
  }
}

export function fsRows(rules: readonly ApprovalRuleDto[]): FsRow[] {
  const byPath = new Map<string | null, ApprovalRuleDto[]>();
  for (const r of rules.filter(isFsRule)) byPath.set(r.path_pattern, [...(byPath.get(r.path_pattern) ?? []), r]);
  const paths = [...byPath.keys()]
    .filter((p): p is string => p !== null)
    .sort((a, b) => depth(b) - depth(a) || a.localeCompare(b));
  return [
    ...paths.map((path) => ({ path, level: levelOf(byPath.get(path)!), rules: byPath.get(path)! })),
    { path: null, level: levelOf(byPath.get(null) ?? []), rules: byPath.get(null) ?? [] },
  ];
}

/** `src` or `src/` → `src/*` (the folder and everything in it); a pattern with `*` or a file stays as typed. */
export function normalizeRowPath(input: string): string {
  const p = input.trim();
  if (p.endsWith('/') && p.length > 1) return `${p}*`;
  return p;
}

/** The rules a row at this level is written as. */
export function rulesForLevel(
  path: string | null,
  level: FsLevel,
): { tool_pattern: string; action: ApprovalRuleDto['action']; path_pattern: string | null; priority: number }[] {
  // Deeper paths are read first; the default row after every path row.
  const priority = path === null ? -60 : -100 - 10 * depth(path);
  const at = (tool_pattern: string, action: ApprovalRuleDto['action']) => ({
    tool_pattern,
    action,
    path_pattern: path,
    priority,
  });
  switch (level) {
    case 'read':
      // The default row has no "ask for writes" half: a path-less ask would beat every path's allow.
      return path === null ? [at('@fs_read', 'allow')] : [at('@fs_read', 'allow'), at('@fs_write', 'require')];
    case 'write':
      return [at('@fs_any', 'allow')];
    case 'ask':
      return [at('@fs_any', 'require')];
    case 'deny':
      return [at('@fs_any', 'deny')];
  }
}

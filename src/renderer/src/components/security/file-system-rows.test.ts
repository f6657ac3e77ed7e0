/** The File System panel's rows are read from rules and written as rules, with one meaning each. */
import { describe, expect, it } from 'vitest';
import type { ApprovalRuleDto } from '../../../../shared/contract/approval';
import { fsRows, levelOf, normalizeRowPath, rulesForLevel } from './file-system-rows';

let next = 1;
const rule = (
  tool_pattern: string,
  action: ApprovalRuleDto['action'],
  path_pattern: string | null,
  extra: Partial<ApprovalRuleDto> = {},
): ApprovalRuleDto => ({
  id: next++,
  group_id: 'default',
  network: false,
  agent_id: null,
  source: null,
  tool_pattern,
  path_pattern,
  command_pattern: null,
  action,
  note: null,
  priority: 0,
  created_at: 0,
  ...extra,
});

describe('file system rows', () => {
  it('reads each level back from the rules it writes', () => {
    for (const level of ['read', 'write', 'ask', 'deny'] as const) {
      const written = rulesForLevel('src/*', level).map((r) => rule(r.tool_pattern, r.action, r.path_pattern));
      expect(levelOf(written)).toBe(level);
    }
    expect(levelOf([rule('@fs_write', 'allow', 'x')])).toBe('custom');
    expect(levelOf([])).toBe('unset');
  });
  it('orders deeper paths first, the default row last, and ignores rules the panel does not own', () => {
    const rows = fsRows([
      rule('@fs_any', 'allow', 'a/*'),
      rule('@fs_any', 'deny', 'a/b/c/*'),
      rule('@fs_read', 'allow', null),
      rule('read_file', 'allow', 'z/*'),
      rule('@fs_any', 'allow', 'q/*', { agent_id: 'helper' }),
    ]);
    expect(rows.map((r) => [r.path, r.level])).toEqual([
      ['a/b/c/*', 'deny'],
      ['a/*', 'write'],
      [null, 'read'],
    ]);
  });
  it('never writes a path-less ask for the default row', () => {
    expect(rulesForLevel(null, 'read').map((r) => `${r.tool_pattern} ${r.action}`)).toEqual(['@fs_read allow']);
  });
  it('writes deeper rows with earlier priorities, the default row after every path row', () => {
    const deep = rulesForLevel('a/b/*', 'ask')[0]!.priority;
    const shallow = rulesForLevel('a/*', 'ask')[0]!.priority;
    const fallback = rulesForLevel(null, 'ask')[0]!.priority;
    expect(deep).toBeLessThan(shallow);
    expect(shallow).toBeLessThan(fallback);
  });
  it('turns a folder into its subtree pattern', () => {
    expect(normalizeRowPath(' src/ ')).toBe('src/*');
    expect(normalizeRowPath('README.md')).toBe('README.md');
    expect(normalizeRowPath('/')).toBe('/');
  });
});

/** The Security page's pure helpers: order, priorities, moving, drafts, and the rule a decision suggests. */
import { describe, expect, it } from 'vitest';
import type { ApprovalRuleDto, DecisionLogEntry } from '../../../../shared/contract/approval';
import {
  draftFields,
  evaluationOrder,
  groupIdFor,
  moved,
  narrowCommandPattern,
  ruleFromDecision,
  topPriority,
} from './rule-logic';

const rule = (id: number, priority: number, action: ApprovalRuleDto['action'] = 'allow'): ApprovalRuleDto => ({
  id,
  group_id: 'default',
  agent_id: null,
  source: null,
  tool_pattern: 'x',
  path_pattern: null,
  command_pattern: null,
  action,
  note: null,
  priority,
  created_at: 0,
});
const entry = (patch: Partial<DecisionLogEntry>): DecisionLogEntry => ({
  id: 9,
  tool_call_id: 'c',
  session_id: 1,
  session_title: 's',
  tool_name: 'read_file',
  arguments: '{}',
  arguments_cut: false,
  path: null,
  command: null,
  action: 'require',
  reason_kind: 'default',
  rule_id: null,
  detail: '',
  actor: 'policy',
  created_at: 0,
  ...patch,
});

describe('rule order and priorities', () => {
  it('orders by priority, then the older rule, within one action', () => {
    expect(evaluationOrder([rule(3, 10), rule(1, 10), rule(2, -5)]).map((r) => r.id)).toEqual([2, 1, 3]);
  });
  it('puts deny before ask before allow whatever the priorities, and the catch-all last', () => {
    const catchAll = { ...rule(9, -99, 'require'), tool_pattern: '*' };
    const order = evaluationOrder([
      rule(1, 1, 'allow'),
      rule(2, 50, 'deny'),
      rule(3, 7, 'require'),
      catchAll,
      rule(4, 2, 'deny'),
    ]);
    expect(order.map((r) => r.id)).toEqual([4, 2, 3, 1, 9]);
  });
  it('gives a new rule a priority before every other, within bounds', () => {
    expect(topPriority([rule(1, 5), rule(2, 999_999)])).toBe(-5);
    expect(topPriority([])).toBe(100);
    expect(topPriority([rule(1, -1_000_000)])).toBe(-1_000_000);
  });
  it('moves one rule up or down within its action, never past the ends or into another action', () => {
    const list = [rule(1, 1), rule(2, 2), rule(3, 3)];
    expect(moved(list, 2, -1)).toEqual([2, 1, 3]);
    expect(moved(list, 3, 1)).toBeNull();
    expect(moved(list, 1, -1)).toBeNull();
    expect(moved(list, 7, 1)).toBeNull();
    expect(moved([rule(1, 1, 'deny'), rule(2, 2, 'allow')], 2, -1)).toBeNull();
  });
});

describe('drafts', () => {
  it('sends blank fields as null and a typed priority as a number', () => {
    expect(
      draftFields({
        tool_pattern: 'read_file',
        path_pattern: ' ',
        command_pattern: '',
        action: 'deny',
        note: '',
        priority: '7',
      }),
    ).toEqual({
      tool_pattern: 'read_file',
      path_pattern: null,
      command_pattern: null,
      action: 'deny',
      note: null,
      priority: 7,
    });
    expect(
      draftFields({
        tool_pattern: 'x',
        path_pattern: '',
        command_pattern: '',
        action: 'allow',
        note: '',
        priority: '',
      }),
    ).not.toHaveProperty('priority');
  });
  it('derives group ids a person can read, unique', () => {
    expect(groupIdFor('Client work', ['default'])).toBe('client-work');
    expect(groupIdFor('Client work', ['client-work', 'client-work-2'])).toBe('client-work-3');
    expect(groupIdFor('!!!', [])).toBe('group');
  });
});

describe('a rule from a logged decision', () => {
  it('keeps a command to its first words', () => {
    expect(narrowCommandPattern('git status --short')).toBe('git status *');
    expect(narrowCommandPattern('npm run build && rm -rf /')).toBe('npm run *');
    expect(narrowCommandPattern('ls')).toBe('ls *');
    expect(narrowCommandPattern('./run.sh')).toBe('./run.sh');
  });
  it('names the exact path relative to the workspace, and flips ask to allow', () => {
    const d = ruleFromDecision(entry({ path: '/ws/src/a.ts', action: 'require' }), '/ws');
    expect(d).toMatchObject({
      tool_pattern: 'read_file',
      path_pattern: 'src/a.ts',
      command_pattern: '',
      action: 'allow',
    });
    expect(ruleFromDecision(entry({ path: '/elsewhere/a', action: 'allow' }), '/ws')).toMatchObject({
      path_pattern: '/elsewhere/a',
      action: 'require',
    });
    expect(
      ruleFromDecision(entry({ tool_name: 'execute_cmd', command: 'git push origin main', action: 'deny' }), '/ws'),
    ).toMatchObject({ command_pattern: 'git push *', action: 'deny' });
  });
});

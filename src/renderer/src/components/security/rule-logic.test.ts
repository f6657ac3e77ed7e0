/** The Security page's pure helpers: order, priorities, moving, drafts, and the draft of a rule the core suggests. */
import { describe, expect, it } from 'vitest';
import type { ApprovalRuleDto } from '../../../../shared/contract/approval';
import { draftFields, draftOfSuggestion, evaluationOrder, groupIdFor, moved, topPriority } from './rule-logic';

const rule = (id: number, priority: number, action: ApprovalRuleDto['action'] = 'allow'): ApprovalRuleDto => ({
  id,
  group_id: 'default',
  network: false,
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
        network: false,
        note: '',
        priority: '7',
      }),
    ).toEqual({
      tool_pattern: 'read_file',
      path_pattern: null,
      command_pattern: null,
      action: 'deny',
      network: false,
      note: null,
      priority: 7,
    });
    expect(
      draftFields({
        tool_pattern: 'x',
        path_pattern: '',
        command_pattern: '',
        action: 'allow',
        network: false,
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

describe('a rule the core suggested', () => {
  // Which rules, with which action, is the core's (approval/suggest-rules.test.ts); the form opens with them as sent.
  it('becomes the draft the form opens with, blank fields as empty text', () => {
    expect(
      draftOfSuggestion({
        tool_pattern: 'execute_cmd',
        path_pattern: null,
        command_pattern: 'cat *',
        action: 'allow',
        note: 'From decision 9',
      }),
    ).toEqual({
      tool_pattern: 'execute_cmd',
      path_pattern: '',
      command_pattern: 'cat *',
      action: 'allow',
      // A suggestion never grants network: the card's "with network" never becomes a rule by accident.
      network: false,
      note: 'From decision 9',
      priority: '',
    });
  });
});

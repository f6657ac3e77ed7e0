/**
 * Groups and rules on a real SQLite file: the seeds (insert-if-absent, never re-added), CRUD, atomic duplicate,
 * the undeletable default group, and bad input refused with a clear message and nothing written.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BridgeError } from '../../../shared/contract/define';
import { closeDatabase, openDatabase } from '../db/database';
import type { RuleInput } from './rule-checks';
import { RulesRepository } from './rules-repository';
import { makeKit, traitsOf, type Kit } from './test-kit';

let k: Kit;
beforeEach(async () => {
  k = await makeKit();
});
afterEach(() => k.close());

const snapshot = () =>
  JSON.stringify([
    k.db.prepare('SELECT * FROM approval_rules ORDER BY id').all(),
    k.db.prepare('SELECT * FROM tool_permission_groups ORDER BY id').all(),
  ]);

describe('seeds', () => {
  it('seeds the default group and the reference rules', () => {
    const rules = k.rules
      .listRules('default')
      .map((r) => `${r.tool_pattern} ${r.path_pattern ?? '-'} ${r.action} @${r.priority}`);
    expect(rules).toEqual([
      '@fs_any memory/* allow @5',
      '@fs_any data/* allow @5',
      '@fs_any secrets/* deny @5',
      'write_todos - allow @10',
      'notify - allow @10',
      'activate_tools - allow @10',
      'show_file_to_user - allow @10',
      'image_generate - allow @10',
      // Migration 043: the session's question and scratchpad tools.
      'ask_user_clarification - allow @10',
      'update_scratchpad - allow @10',
      // Migration 091: the sub-agent launchers and the read-only introspection tools (docs/agents.md).
      'execute_task - allow @10',
      'execute_subtask - allow @10',
      'read_agent_result - allow @10',
      'list_items - allow @10',
      'read_notification - allow @10',
      // Migration 113: the image providers' list, read-only like list_items (docs/plugins.md).
      'image_generate_providers_list - allow @10',
      '* - require @999999',
    ]);
    expect(k.rules.listGroups()).toMatchObject([{ id: 'default', is_default: true }]);
  });

  it("never re-adds or overwrites on a later start: the user's edits stay", () => {
    const star = k.rules.listRules('default').find((r) => r.tool_pattern === '*')!;
    const cmd = k.rules.listRules('default').find((r) => r.tool_pattern === 'write_todos')!;
    k.rules.deleteRule(star.id);
    k.rules.updateRule(cmd.id, { action: 'deny', note: 'mine' });
    const file = k.db.name;
    closeDatabase(k.db);
    const db = openDatabase({ file });
    const again = new RulesRepository(db, traitsOf).listRules('default');
    expect(again.some((r) => r.tool_pattern === '*')).toBe(false);
    expect(again.find((r) => r.id === cmd.id)).toMatchObject({ action: 'deny', note: 'mine' });
    closeDatabase(db);
    k.db = openDatabase({ file }); // for afterEach
  });
});

describe('groups', () => {
  it('creates, renames, duplicates atomically and deletes with its rules', () => {
    k.rules.createGroup({ id: 'work', name: 'Work' });
    k.rules.createRule({
      group_id: 'work',
      tool_pattern: 'execute_cmd',
      command_pattern: 'npm test*',
      action: 'allow',
    });
    k.rules.createRule({
      group_id: 'work',
      tool_pattern: '@fs_write',
      path_pattern: 'src/*',
      action: 'allow',
      priority: 3,
    });
    expect(k.rules.updateGroup('work', { name: 'Work stuff' }).name).toBe('Work stuff');
    const copy = k.rules.duplicateGroup('work', { id: 'work-2', name: 'Work copy' });
    expect(copy.description).toBe('');
    const strip = (g: string) => k.rules.listRules(g).map(({ id: _i, group_id: _g, created_at: _c, ...r }) => r);
    expect(strip('work-2')).toEqual(strip('work'));
    k.rules.deleteGroup('work');
    expect(k.rules.listRules().filter((r) => r.group_id === 'work')).toEqual([]);
    expect(k.rules.listRules('work-2')).toHaveLength(2);
  });

  it('a duplicate onto an existing id writes nothing (atomic)', () => {
    k.rules.createGroup({ id: 'a', name: 'A' });
    k.rules.createRule({ group_id: 'a', tool_pattern: 'notify', action: 'deny' });
    k.rules.createGroup({ id: 'b', name: 'B' });
    const before = snapshot();
    expect(() => k.rules.duplicateGroup('a', { id: 'b', name: 'B again' })).toThrow(/already exists/);
    expect(snapshot()).toBe(before);
  });

  it('the default group cannot be deleted', () => {
    const before = snapshot();
    expect(() => k.rules.deleteGroup('default')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(snapshot()).toBe(before);
  });
});

describe('bad input is refused with a clear message and nothing is written', () => {
  const cases: [string, RuleInput, RegExp][] = [
    ['an empty tool pattern', { tool_pattern: '', action: 'allow' }, /tool pattern is empty/],
    ['a * in the middle of a tool pattern', { tool_pattern: 'mcp__*__x', action: 'allow' }, /trailing/],
    ['an unknown tool group', { tool_pattern: '@fs_all', action: 'allow' }, /Unknown tool group/],
    [
      'a * in the middle of a path pattern',
      { tool_pattern: '@fs_read', path_pattern: 'a/*/b', action: 'allow' },
      /only stand at the end/,
    ],
    [
      '.. in a path pattern',
      { tool_pattern: '@fs_read', path_pattern: '../etc/*', action: 'allow' },
      /may not contain/,
    ],
    ['backslashes', { tool_pattern: '@fs_read', path_pattern: 'a\\b', action: 'allow' }, /separators/],
    [
      'invisible characters',
      { tool_pattern: 'execute_cmd', command_pattern: 'git\u202e *', action: 'allow' },
      /invisible/,
    ],
    [
      'a newline in a command pattern',
      { tool_pattern: 'execute_cmd', command_pattern: 'git\nrm', action: 'allow' },
      /newlines/,
    ],
    [
      'a command pattern on another tool',
      { tool_pattern: '*', command_pattern: 'git *', action: 'allow' },
      /only applies/,
    ],
    ['a fractional priority', { tool_pattern: 'notify', action: 'allow', priority: 1.5 }, /whole number/],
    ['a priority out of range', { tool_pattern: 'notify', action: 'allow', priority: 10_000_000 }, /between/],
    ['an unknown group', { group_id: 'nope', tool_pattern: 'notify', action: 'allow' }, /no permission group "nope"/],
    ['a bad action', { tool_pattern: 'notify', action: 'maybe' as 'allow' }, /require, allow or deny/],
    ['a second catch-all with another action', { tool_pattern: '*', action: 'allow' }, /already has a catch-all/],
    ['a bad agent id', { tool_pattern: 'notify', agent_id: 'a b', action: 'allow' }, /agent id/],
  ];
  for (const [label, input, message] of cases) {
    it(label, () => {
      const before = snapshot();
      let thrown: unknown;
      try {
        k.rules.createRule(input);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(BridgeError);
      expect((thrown as BridgeError).message).toMatch(message);
      expect(snapshot()).toBe(before);
    });
  }

  it('an update that would break a rule writes nothing', () => {
    const r = k.rules.createRule({ tool_pattern: 'notify', action: 'deny', priority: 3 });
    const before = snapshot();
    expect(() => k.rules.updateRule(r.id, { path_pattern: '../x' })).toThrow(BridgeError);
    expect(() => k.rules.updateRule(9999, { action: 'allow' })).toThrow(/no rule 9999/);
    expect(snapshot()).toBe(before);
  });

  it('a catch-all with the same action is accepted; narrowing a * by path is not a catch-all', () => {
    expect(k.rules.createRule({ tool_pattern: '*', action: 'require', priority: 5 }).id).toBeGreaterThan(0);
    expect(k.rules.createRule({ tool_pattern: '*', path_pattern: 'docs/*', action: 'allow' }).id).toBeGreaterThan(0);
  });

  it('bad group ids and names are refused', () => {
    const before = snapshot();
    expect(() => k.rules.createGroup({ id: 'Has Space', name: 'x' })).toThrow(/group id/);
    expect(() => k.rules.createGroup({ id: 'ok', name: '   ' })).toThrow(/name/);
    expect(() => k.rules.createGroup({ id: 'default', name: 'again' })).toThrow(/already exists/);
    expect(snapshot()).toBe(before);
  });
});

it('normalizes path patterns (./ prefix, trailing slash)', () => {
  expect(k.rules.createRule({ tool_pattern: '@fs_read', path_pattern: './docs/', action: 'allow' }).path_pattern).toBe(
    'docs',
  );
});

describe('a command pattern and a network grant follow what a tool declares, not its name', () => {
  it('every tool that declares a command argument takes them; a tool that declares none, or a glob, does not', () => {
    const runScript = { ...traitsOf('execute_cmd')!, name: 'run_script', commandKey: 'script' };
    const traits = (name: string) =>
      name === 'run_script' ? runScript : name === 'execute_cmd' ? { ...runScript, commandKey: null } : traitsOf(name);
    const rules = new RulesRepository(k.db, traits);
    const grant = { command_pattern: 'npm install *', action: 'allow' as const, network: true };
    expect(rules.createRule({ tool_pattern: 'run_script', ...grant })).toMatchObject({ network: true });
    for (const tool_pattern of ['execute_cmd', 'write_file', 'run_*', 'mcp__x__run'])
      expect(() => rules.createRule({ tool_pattern, ...grant })).toThrow(/only applies to rules whose tool pattern/);
    expect(() => rules.createRule({ tool_pattern: 'run_script', action: 'allow', network: true })).toThrow(
      /Network is granted to commands/,
    );
  });
});

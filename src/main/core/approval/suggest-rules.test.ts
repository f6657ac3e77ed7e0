/**
 * "Make a rule from this" suggests the action that was decided, covering every part that decided it, with a path
 * relative to the session's working directory: real gate, real SQLite, decisions recorded as the session records
 * them, in both layouts (a session at <data>/workspace and one in a chosen folder).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunContextSchema } from '../../../shared/run-context';
import type { Decision } from '../../../shared/contract/approval';
import { argsHash, recordDecision } from './decisions';
import { commandFamily, suggestRules } from './suggest-rules';
import { LAYOUTS, makeKit, type Kit } from './test-kit';

let k: Kit;
let n = 0;

/** A call of session `sid` decided by the gate (or `human`), recorded; returns the decision's id. */
function logged(sid: number, toolName: string, args: Record<string, unknown>, human?: 'allow' | 'deny'): number {
  const id = `tc_${++n}`;
  k.toolRow(sid, id, toolName, args);
  const decision: Decision = human
    ? { action: human, why: { kind: 'human', text: 'Decided by you.' }, actor: 'user' }
    : k.gate.check(k.call(toolName, args, { sessionId: sid, category: toolName === 'execute_cmd' ? 'shell' : null }));
  return recordDecision(k.db, { toolCallId: id, sessionId: sid, decision, argsHash: argsHash(args) });
}
const suggest = (decisionId: number) =>
  suggestRules(
    { db: k.db, gate: k.gate, session: () => ({ runContext: RunContextSchema.parse({}), workingDir: k.workspace }) },
    decisionId,
  );
const allow = (command: string) =>
  k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: command, action: 'allow' });

describe.each(LAYOUTS)('a session in the %s', (layout) => {
  beforeEach(async () => {
    k = await makeKit({ layout });
  });
  afterEach(() => k.close());

  it('an allowed compound command: Allow, one rule per part, as each part was allowed', () => {
    allow('ls *');
    allow('cat *');
    const sid = k.session();
    const id = logged(sid, 'execute_cmd', { command: 'ls && cat hello.txt' });
    expect(suggest(id).rules).toEqual([
      expect.objectContaining({ tool_pattern: 'execute_cmd', command_pattern: 'ls *', action: 'allow' }),
      expect.objectContaining({ tool_pattern: 'execute_cmd', command_pattern: 'cat *', action: 'allow' }),
    ]);
  });

  it('an asked one: Ask, for the part that asked; a denied one: Deny, for the part denied', () => {
    allow('ls *');
    k.rules.createRule({ tool_pattern: 'execute_cmd', command_pattern: 'rm *', action: 'deny' });
    const sid = k.session();
    expect(suggest(logged(sid, 'execute_cmd', { command: 'ls && cat hello.txt' })).rules).toEqual([
      expect.objectContaining({ command_pattern: 'cat *', action: 'require' }),
    ]);
    expect(suggest(logged(sid, 'execute_cmd', { command: 'ls -la && rm -rf build' })).rules).toEqual([
      expect.objectContaining({ command_pattern: 'rm *', action: 'deny' }),
    ]);
  });

  it("the person's answer: their action, for every part", () => {
    const sid = k.session();
    const rules = suggest(logged(sid, 'execute_cmd', { command: 'echo a | grep -c a' }, 'allow')).rules;
    expect(rules.map((r) => [r.command_pattern, r.action])).toEqual([
      ['echo *', 'allow'],
      ['grep *', 'allow'],
    ]);
  });

  it("a path relative to the session's working directory when inside it, absolute outside; the folder is named", () => {
    const sid = k.session();
    const inside = suggest(logged(sid, 'read_file', { path: join(k.workspace, 'docs/a.md') }));
    expect(inside).toEqual({
      workingDir: k.workspace,
      rules: [expect.objectContaining({ tool_pattern: 'read_file', path_pattern: 'docs/a.md', action: 'allow' })],
    });
    const outside = suggest(logged(sid, 'mcp__fs__read', { path: join(k.outside, 'b.txt') }));
    expect(outside.rules[0]).toMatchObject({ path_pattern: join(k.outside, 'b.txt'), action: 'require' });
  });

  it('an unknown decision is refused with a sentence', () => {
    expect(() => suggest(99_999)).toThrow(/There is no decision 99999/);
  });
});

it('commandFamily: the own words up to the first flag or path', () => {
  expect(commandFamily('git status --short')).toBe('git status *');
  expect(commandFamily('ls')).toBe('ls *');
  expect(commandFamily('./run.sh')).toBe('./run.sh');
  expect(commandFamily('cat hello.txt')).toBe('cat *');
  expect(commandFamily('npm run build')).toBe('npm run *');
  expect(commandFamily('echo a')).toBe('echo *');
});

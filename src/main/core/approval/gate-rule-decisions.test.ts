/**
 * The rules' decisions the gate keeps (gate.ts `check`): a call without a path, a command or a stored secret is
 * decided by the rules alone, so its allow or deny is kept until the rules change. Each test makes the decision
 * kept first, then changes what the decision depends on, and asserts the gate answers as a fresh evaluation does
 * (`explain`, which keeps nothing). Real SQLite file, real temp workspace.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { makeKit, type Kit } from './test-kit';
import type { GateCall } from './gate-port';
import { PATH_ARG_KEYS } from '../tools/_policy/paths';

let k: Kit;
beforeEach(async () => {
  k = await makeKit();
});
afterEach(() => k.close());

/** `check` twice (the second from what was kept), each equal to what a fresh evaluation decides now. */
function decide(call: GateCall) {
  const first = k.gate.check(call);
  const again = k.gate.check(call);
  const fresh = k.gate.explain(call).decision;
  expect(first).toEqual(fresh);
  expect(again).toEqual(fresh);
  return again;
}

describe('rule decisions kept by the gate', () => {
  it('follow every change of the rules: a deny added, edited to allow, deleted', () => {
    const call = k.call('write_todos', { todos: [] });
    expect(decide(call)).toMatchObject({ action: 'allow', why: { kind: 'rule' } });
    const deny = k.rules.createRule({ tool_pattern: 'write_todos', action: 'deny', priority: 1 });
    expect(decide(call)).toMatchObject({ action: 'deny', why: { kind: 'rule', ruleId: deny.id } });
    k.rules.updateRule(deny.id, { action: 'allow' });
    expect(decide(call)).toMatchObject({ action: 'allow', why: { kind: 'rule', ruleId: deny.id } });
    k.rules.deleteRule(deny.id);
    expect(decide(call)).toMatchObject({ action: 'allow', why: { kind: 'rule' } });
    expect(decide(call).why.ruleId).not.toBe(deny.id);
  });

  it('are kept per agent, source and permission group', () => {
    k.rules.createRule({ tool_pattern: 'write_todos', agent_id: 'helper', action: 'deny', priority: 1 });
    k.rules.createRule({ tool_pattern: 'write_todos', source: 'schedule', action: 'deny', priority: 1 });
    k.rules.createGroup({ id: 'strict', name: 'Strict' });
    k.rules.createRule({ group_id: 'strict', tool_pattern: 'write_todos', action: 'deny', priority: 1 });
    const main = k.call('write_todos', { todos: [] });
    expect(decide(main).action).toBe('allow');
    expect(decide({ ...main, agentId: 'helper' }).action).toBe('deny');
    expect(decide({ ...main, source: 'schedule' }).action).toBe('deny');
    expect(decide({ ...main, runContext: k.rc({ security_group: 'strict' }) }).action).toBe('deny');
    expect(decide(main).action).toBe('allow');
  });

  it('never stand for a call with a path: its guards and the fast path judge each call', () => {
    k.rules.createRule({ tool_pattern: 'read_file', action: 'allow', priority: 1 });
    expect(decide(k.call('read_file', { path: join(k.workspace, 'a.txt') })).action).toBe('allow');
    expect(decide(k.call('read_file', { path: join(k.workspace, 'secrets', 'key') }))).toMatchObject({
      action: 'deny',
      why: { kind: 'guard' },
    });
  });

  it('never stand for a call with a path under any key the guards read, alone or in a list, after one without', () => {
    k.rules.createRule({ tool_pattern: 'frobnicate', action: 'allow', priority: 1 });
    const secret = join(k.workspace, 'secrets', 'key');
    expect(decide(k.call('frobnicate', { note: 'x', paths: [], path: '' })).action).toBe('allow'); // kept
    for (const key of PATH_ARG_KEYS) {
      for (const value of [secret, ['', 7, secret]]) {
        expect(decide(k.call('frobnicate', { [key]: value })), `${key}: ${JSON.stringify(value)}`).toMatchObject({
          action: 'deny',
          why: { kind: 'guard' },
        });
      }
    }
  });

  it('never keep an ask: a bypass granted after it lifts the next call', () => {
    const call = k.call('frobnicate');
    expect(decide(call)).toMatchObject({ action: 'require', why: { kind: 'rule' } });
    k.bypass.grant(1, { kind: 'tool', tool: 'frobnicate' }, null);
    expect(decide(call)).toMatchObject({ action: 'allow', why: { kind: 'bypass' } });
  });

  it('are shared read-only: no call can change the decision another call gets', () => {
    const call = k.call('write_todos', { todos: [] });
    const kept = decide(call);
    expect(Object.isFrozen(kept) && Object.isFrozen(kept.why)).toBe(true);
    expect(() => {
      (kept as { action: string }).action = 'deny';
    }).toThrow();
    expect(k.gate.check(call).action).toBe('allow');
  });
});

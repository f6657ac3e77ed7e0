/**
 * The Security page's own calls through the real dispatcher over the real approval services and SQLite: dry-run
 * rule checks that point at a field and write nothing, reordering, the command preview, the decision log, the
 * session group switch, revoking one bypass, and "what would happen if…" judged with the session's run context.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunContextSchema, type RunContext } from '../../../shared/run-context';
import { makeKit, type Kit } from '../approval/test-kit';
import { createApprovalHandlers } from './approval-handlers';
import { dispatchCall } from './dispatch';
import type { BridgeHandlers } from './handlers';

let k: Kit;
let contexts: Map<number, RunContext>;
let call: (
  channel: string,
  request: unknown,
) => Promise<{ ok: boolean; result?: any; error?: { code: string; message: string } }>;

beforeEach(async () => {
  k = await makeKit();
  contexts = new Map();
  const sessions = {
    runContext: (id: number) => {
      const rc = contexts.get(id);
      if (!rc) throw new Error(`no session ${id}`);
      return rc;
    },
    workingDir: (id: number) => contexts.get(id)?.working_directory ?? k.workspace,
    setSecurityGroup: (id: number, groupId: string) =>
      void contexts.set(id, { ...contexts.get(id)!, security_group: groupId }),
  };
  const handlers = createApprovalHandlers({
    approval: k,
    db: k.db,
    sessions,
    categoryOf: (n) => (n === 'execute_cmd' ? 'shell' : null),
  }) as unknown as BridgeHandlers;
  call = (channel, request) => dispatchCall(handlers, channel, request) as never;
});
afterEach(() => k.close());

const count = () => (k.db.prepare('SELECT COUNT(*) AS n FROM approval_rules').get() as { n: number }).n;

describe('approval:checkRule', () => {
  it('points a refusal at its field and writes nothing', async () => {
    const before = count();
    expect(
      await call('approval:checkRule', { tool_pattern: 'read_file', path_pattern: 'a*/b', action: 'allow' }),
    ).toMatchObject({
      ok: true,
      result: { problem: { field: 'path_pattern', message: expect.stringMatching(/only stand at the end/) } },
    });
    expect(
      await call('approval:checkRule', { tool_pattern: 'read_file', command_pattern: 'git *', action: 'allow' }),
    ).toMatchObject({ result: { problem: { field: 'command_pattern' } } });
    expect(await call('approval:checkRule', { tool_pattern: '*', action: 'allow' })).toMatchObject({
      result: { problem: { field: 'tool_pattern', code: 'conflict' } },
    });
    expect(
      await call('approval:checkRule', { tool_pattern: 'read_file', action: 'allow', priority: 2_000_000 }),
    ).toMatchObject({ result: { problem: { field: 'priority' } } });
    expect(await call('approval:checkRule', { tool_pattern: 'read_file', action: 'allow' })).toEqual({
      ok: true,
      result: { problem: null },
    });
    expect(count()).toBe(before);
  });

  it('checks an update merged over the stored rule, and the write refuses with the same message', async () => {
    const { rule } = (
      await call('approval:createRule', { tool_pattern: 'execute_cmd', command_pattern: 'git *', action: 'allow' })
    ).result;
    const check = await call('approval:checkRule', { id: rule.id, command_pattern: 'rm * -rf' });
    const write = await call('approval:updateRule', { id: rule.id, command_pattern: 'rm * -rf' });
    expect(check.result.problem).toMatchObject({ field: 'command_pattern' });
    expect(write).toMatchObject({ ok: false, error: { message: check.result.problem.message } });
    expect(k.rules.getRule(rule.id)!.command_pattern).toBe('git *');
  });
});

describe('approval:reorderRules', () => {
  it('rewrites priorities in the given order, and refuses an order that misses a rule', async () => {
    await call('approval:createGroup', { id: 'work', name: 'Work' });
    const ids: number[] = [];
    for (const tool of ['a', 'b', 'c'])
      ids.push(
        (await call('approval:createRule', { group_id: 'work', tool_pattern: tool, action: 'allow' })).result.rule.id,
      );
    const r = await call('approval:reorderRules', { groupId: 'work', ids: [ids[2], ids[0], ids[1]] });
    expect(r.result.rules.map((x: { tool_pattern: string; priority: number }) => [x.tool_pattern, x.priority])).toEqual(
      [
        ['c', 10],
        ['a', 20],
        ['b', 30],
      ],
    );
    expect(await call('approval:reorderRules', { groupId: 'work', ids: [ids[0], ids[1]] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await call('approval:reorderRules', { groupId: 'work', ids: [ids[0], ids[0], ids[1]] })).toMatchObject({
      ok: false,
    });
    expect(k.rules.listRules('work').map((x) => x.priority)).toEqual([10, 20, 30]);
  });
});

describe('approval:previewCommand', () => {
  it('splits a command into the parts the rules see and marks which a pattern matches', async () => {
    const r = await call('approval:previewCommand', {
      command: 'git status && npm test | tee out.txt',
      pattern: 'git *',
    });
    expect(r.result.parts).toEqual([
      { text: 'git status', matches: true },
      { text: 'npm test', matches: false },
      { text: 'tee out.txt', matches: false },
    ]);
    expect(r.result.ruleMatches).toEqual({ allow: false, require: true, deny: true });
    const unsafe = await call('approval:previewCommand', { command: 'git log $(curl x)', pattern: 'git *' });
    expect(unsafe.result.unsafe.length).toBeGreaterThan(0);
    expect(unsafe.result.ruleMatches.allow).toBe(false);
    const bad = await call('approval:previewCommand', { command: 'ls', pattern: 'a*b' });
    expect(bad.result).toMatchObject({
      patternError: expect.stringMatching(/end/),
      ruleMatches: null,
      parts: [{ text: 'ls', matches: null }],
    });
  });
});

describe('approval:listDecisions', () => {
  it('lists decisions newest first with tool, path and why; searches and filters', async () => {
    const sid = k.session({ title: 'Fixing tests' });
    k.toolRow(sid, 'c1', 'read_file', { path: `${k.workspace}/src/a.ts` });
    k.toolRow(sid, 'c2', 'execute_cmd', { command: 'rm -rf build_dir' });
    k.db
      .prepare(`INSERT INTO tool_decisions (tool_call_id, session_id, action, reason_kind, rule_id, detail, args_hash, actor, created_at) VALUES
      ('c1', ?, 'allow', 'rule', 7, 'Allowed by rule 7', 'h', 'policy', 1), ('c2', ?, 'require', 'default', NULL, 'No rule matched', 'h', 'policy', 2)`)
      .run(sid, sid);
    const all = (await call('approval:listDecisions', {})).result.decisions;
    expect(all.map((d: { tool_call_id: string }) => d.tool_call_id)).toEqual(['c2', 'c1']);
    expect(all[0]).toMatchObject({
      tool_name: 'execute_cmd',
      command: 'rm -rf build_dir',
      session_title: 'Fixing tests',
      action: 'require',
    });
    expect(all[1]).toMatchObject({ path: `${k.workspace}/src/a.ts`, rule_id: 7 });
    expect(
      (await call('approval:listDecisions', { query: 'rule 7' })).result.decisions.map(
        (d: { tool_call_id: string }) => d.tool_call_id,
      ),
    ).toEqual(['c1']);
    expect((await call('approval:listDecisions', { query: 'src/a' })).result.decisions).toHaveLength(1);
    expect(
      (await call('approval:listDecisions', { action: 'require' })).result.decisions.map(
        (d: { tool_call_id: string }) => d.tool_call_id,
      ),
    ).toEqual(['c2']);
    // `_` is literal, not a one-character wildcard.
    expect((await call('approval:listDecisions', { query: 'build_d' })).result.decisions).toHaveLength(1);
    expect((await call('approval:listDecisions', { query: 'buildXd' })).result.decisions).toHaveLength(0);
  });

  it('newest is the order written: a clock set back reorders nothing (and the table is read backwards, never sorted)', async () => {
    const sid = k.session();
    const insert = k.db.prepare(
      `INSERT INTO tool_decisions (tool_call_id, session_id, action, reason_kind, detail, args_hash, created_at) VALUES (?, ?, 'allow', 'rule', '', 'h', ?)`,
    );
    insert.run('before', sid, 2_000);
    insert.run('after-the-clock-went-back', sid, 1_000);
    expect(
      (await call('approval:listDecisions', {})).result.decisions.map((d: { tool_call_id: string }) => d.tool_call_id),
    ).toEqual(['after-the-clock-went-back', 'before']);
  });
});

describe('session groups and "what would happen if…"', () => {
  it('switches a session to an existing group only; explain then judges by that group', async () => {
    const sid = k.session();
    contexts.set(sid, RunContextSchema.parse({}));
    expect(await call('approval:sessionGroup', { sessionId: sid })).toEqual({
      ok: true,
      result: { groupId: 'default' },
    });
    expect(await call('approval:setSessionGroup', { sessionId: sid, groupId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    await call('approval:createGroup', { id: 'strict', name: 'Strict' });
    await call('approval:createRule', { group_id: 'strict', tool_pattern: 'write_todos', action: 'deny' });
    expect(await call('approval:setSessionGroup', { sessionId: sid, groupId: 'strict' })).toEqual({
      ok: true,
      result: { groupId: 'strict' },
    });
    const r = await call('approval:explain', { toolName: 'write_todos', args: {}, sessionId: sid });
    expect(r.result).toMatchObject({ decision: { action: 'deny', why: { kind: 'rule' } }, hidden: true });
    // The gate's own decision for the same call, as the session loop makes it.
    expect(k.gate.check(k.call('write_todos', {}, { sessionId: sid, runContext: contexts.get(sid)! })).action).toBe(
      'deny',
    );
  });

  it('explain sees a category bypass through the tool category, like the session loop', async () => {
    const sid = k.session();
    contexts.set(sid, RunContextSchema.parse({}));
    k.bypass.grant(sid, { kind: 'category', category: 'shell' }, null);
    const r = await call('approval:explain', {
      toolName: 'execute_cmd',
      args: { command: 'npm test' },
      sessionId: sid,
    });
    expect(r.result.decision).toMatchObject({ action: 'allow', why: { kind: 'bypass' } });
  });

  it('revokes one bypass by id and leaves the others', async () => {
    const sid = k.session();
    k.bypass.grant(sid, { kind: 'category', category: 'shell' }, null);
    const all = k.bypass.grant(sid, { kind: 'all' }, null);
    expect(await call('approval:revokeBypasses', { sessionId: sid, id: all.id })).toEqual({
      ok: true,
      result: { revoked: 1 },
    });
    expect(k.bypass.list(sid).map((g) => g.scope.kind)).toEqual(['category']);
  });
});

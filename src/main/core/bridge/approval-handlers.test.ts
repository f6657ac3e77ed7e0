/**
 * The approval and inbox calls through the real dispatcher (zod parse → handler → response parse) over the real
 * services: bad requests are refused before the handler, bad input comes back as a readable BridgeError.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { argsHash } from '../approval/decisions';
import { knownTools, makeKit, type Kit } from '../approval/test-kit';
import { createApprovalHandlers } from './approval-handlers';
import { dispatchCall } from './dispatch';
import type { BridgeHandlers } from './handlers';

let k: Kit;
let call: (channel: string, request: unknown) => Promise<Awaited<ReturnType<typeof dispatchCall>>>;
beforeEach(async () => {
  k = await makeKit();
  // Only this domain's handlers: the dispatcher looks up the one channel it is given.
  const handlers = createApprovalHandlers({ approval: k }) as unknown as BridgeHandlers;
  call = (channel, request) => dispatchCall(handlers, channel, request);
});
afterEach(() => k.close());

describe('approval:* calls', () => {
  it('group and rule CRUD round-trips', async () => {
    expect(await call('approval:createGroup', { id: 'work', name: 'Work' })).toMatchObject({
      ok: true,
      result: { group: { id: 'work', rule_count: 0 } },
    });
    const created = await call('approval:createRule', {
      group_id: 'work',
      tool_pattern: 'execute_cmd',
      command_pattern: 'git *',
      action: 'allow',
      priority: 1,
    });
    expect(created).toMatchObject({ ok: true, result: { rule: { group_id: 'work', command_pattern: 'git *' } } });
    const id = (created as { result: { rule: { id: number } } }).result.rule.id;
    expect(await call('approval:updateRule', { id, note: 'git is fine' })).toMatchObject({
      ok: true,
      result: { rule: { note: 'git is fine', action: 'allow' } },
    });
    expect(await call('approval:duplicateGroup', { sourceId: 'work', id: 'work-b', name: 'Work B' })).toMatchObject({
      ok: true,
      result: { group: { rule_count: 1 } },
    });
    expect(await call('approval:listRules', { groupId: 'work-b' })).toMatchObject({
      ok: true,
      result: { rules: [{ command_pattern: 'git *' }] },
    });
    expect(await call('approval:deleteRule', { id })).toEqual({ ok: true, result: { ok: true } });
    expect(await call('approval:deleteGroup', { id: 'work' })).toEqual({ ok: true, result: { ok: true } });
    expect((await call('approval:listGroups', {})) as { result: { groups: { id: string }[] } }).toMatchObject({
      result: { groups: [{ id: 'default' }, { id: 'work-b' }] },
    });
  });

  it('refuses bad input with a clear message; refuses malformed requests before the handler', async () => {
    expect(await call('approval:createRule', { tool_pattern: 'a*b', action: 'allow' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/trailing/) },
    });
    expect(await call('approval:deleteGroup', { id: 'default' })).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
    expect(await call('approval:createRule', { tool_pattern: '*', action: 'allow' })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await call('approval:createRule', { tool_pattern: 'x', action: 'allow', extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await call('approval:createRule', { tool_pattern: 'x'.repeat(201), action: 'allow' })).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(
      await call('approval:explain', { toolName: 'read_file', args: JSON.parse('{"__proto__": {"x": 1}}') }),
    ).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('explain answers "what would happen if…" with the trace, and writes nothing', async () => {
    const before = k.db.prepare('SELECT COUNT(*) AS n FROM tool_decisions').get();
    const read = await call('approval:explain', { toolName: 'read_file', args: { path: 'docs/a.md' } });
    expect(read).toMatchObject({
      ok: true,
      result: { decision: { action: 'allow', why: { kind: 'fast_path' } }, hidden: false },
    });
    const secret = await call('approval:explain', { toolName: 'read_file', args: { path: 'Secrets/a' } });
    expect(secret).toMatchObject({
      ok: true,
      result: { decision: { action: 'deny', why: { kind: 'guard', guard: 'secrets' } } },
    });
    const cmd = await call('approval:explain', {
      toolName: 'execute_cmd',
      args: { command: 'git status && curl x | sh' },
      runContext: { allow_fs_writes: [] },
    });
    expect(cmd).toMatchObject({
      ok: true,
      result: {
        decision: { action: 'require' },
        trace: expect.arrayContaining([expect.stringMatching(/command parts/)]),
      },
    });
    expect(k.db.prepare('SELECT COUNT(*) AS n FROM tool_decisions').get()).toEqual(before);
  });

  it('explainFileAccess answers for reading and writing a path as the file tools calls would be decided', async () => {
    const withTools = createApprovalHandlers({ approval: k, tools: knownTools }) as unknown as BridgeHandlers;
    const ask = (channel: string, request: unknown) => dispatchCall(withTools, channel, request);
    const before = k.db.prepare('SELECT COUNT(*) AS n FROM tool_decisions').get();
    k.rules.createRule({ tool_pattern: '@fs_write', path_pattern: 'locked/*', action: 'deny', priority: 5 });
    for (const path of ['docs/a.md', 'Secrets/a', 'locked/b.txt', '../outside.txt']) {
      const access = await ask('approval:explainFileAccess', { path });
      const read = await ask('approval:explain', { toolName: 'read_file', args: { path } });
      const write = await ask('approval:explain', { toolName: 'write_file', args: { path, content: '' } });
      if (!access.ok || !read.ok || !write.ok) throw new Error(`${path}: a call failed`);
      const decisions = access.result as { read: unknown; write: unknown };
      expect(decisions.read, path).toEqual((read.result as { decision: unknown }).decision);
      expect(decisions.write, path).toEqual((write.result as { decision: unknown }).decision);
    }
    expect(await ask('approval:explainFileAccess', { path: 'locked/b.txt' })).toMatchObject({
      ok: true,
      result: { read: { action: 'allow' }, write: { action: 'deny' } },
    });
    expect(k.db.prepare('SELECT COUNT(*) AS n FROM tool_decisions').get()).toEqual(before);
    // Without the tools' traits there is no file tool to ask with: a sentence, not a guess.
    expect(await call('approval:explainFileAccess', { path: 'docs/a.md' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('lists the hard guards as locked rows', async () => {
    const r = (await call('approval:listGuards', {})) as {
      ok: true;
      result: { guards: { id: string; locked: boolean }[] };
    };
    expect(r.result.guards.map((g) => g.id)).toEqual([
      'secrets',
      'credentials',
      'app_data_write',
      'git_config',
      'app_data_touch',
      'steering_file',
      'secret_value',
      'outside_working_dir',
      'symlink_escape',
      'unsafe_shell',
    ]);
    expect(r.result.guards.every((g) => g.locked)).toBe(true);
  });
});

describe('inbox:* calls', () => {
  it('list, resolve with a bypass, list bypasses, refuse a replay and a wrong hash', async () => {
    const sid = k.session();
    const args = { command: 'npm test' };
    k.toolRow(sid, 'c1', 'execute_cmd', args);
    const { requestId, result } = k.pending.requestApproval({
      sessionId: sid,
      toolCallId: 'c1',
      toolName: 'execute_cmd',
      args,
      argsHash: argsHash(args),
      category: 'shell',
      agentId: 'main',
      source: 'web',
    });
    expect(await call('inbox:list', {})).toMatchObject({
      ok: true,
      result: {
        total: 1,
        approvals: [{ request_id: requestId, arguments: JSON.stringify(args), tool_category: 'shell' }],
      },
    });
    expect(
      await call('inbox:resolveApproval', {
        requestId,
        action: 'approve',
        argsHash: argsHash({ command: 'npm test; rm -rf /' }),
      }),
    ).toMatchObject({ ok: false, error: { code: 'args_mismatch' } });
    expect(
      await call('inbox:resolveApproval', {
        requestId,
        action: 'approve',
        note: 'ok',
        argsHash: argsHash(args),
        bypassSecs: 3600,
      }),
    ).toEqual({ ok: true, result: { tool_call_id: 'c1', session_id: sid, approved: true } });
    await expect(result).resolves.toMatchObject({ approved: true });
    const listed = await call('approval:listBypasses', { sessionId: sid });
    expect(listed).toMatchObject({
      ok: true,
      result: {
        bypasses: [{ scope: { kind: 'command', commands: ['npm'] }, label: '`npm *` commands', tool_call_id: 'c1' }],
      },
    });
    expect(
      await call('inbox:resolveApproval', { requestId, action: 'reject', argsHash: argsHash(args) }),
    ).toMatchObject({ ok: false, error: { code: 'already_decided' } });
    const id = (listed as { result: { bypasses: { id: number }[] } }).result.bypasses[0]!.id;
    expect(await call('approval:revokeBypasses', { sessionId: sid, id: id + 1 })).toEqual({
      ok: true,
      result: { revoked: 0 },
    });
    expect(await call('approval:revokeBypasses', { sessionId: sid, id })).toEqual({ ok: true, result: { revoked: 1 } });
  });

  it('answers a clarification', async () => {
    const sid = k.session();
    k.toolRow(sid, 'q', 'ask_user_clarification', {});
    const { requestId, result } = k.pending.requestClarification({
      sessionId: sid,
      toolCallId: 'q',
      title: 'T',
      question: 'Q?',
      suggestedAnswers: [],
    });
    expect(await call('inbox:answerClarification', { requestId, answer: 'yes' })).toEqual({
      ok: true,
      result: { tool_call_id: 'q', session_id: sid },
    });
    await expect(result).resolves.toBe('yes');
  });
});

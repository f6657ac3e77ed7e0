/**
 * Pending approvals and the Inbox on a real SQLite file: pending-before-wait, events, the shared id sequence,
 * I6 (hash binding, no replay), bypass grants, cancellation, X7 (timeout → deny; restart → asked again), C4 (the
 * decision and the tool row in one transaction).
 * Check ids (C4, I6, X7) are listed in docs/security-checks.md.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { closeDatabase, openDatabase } from '../db/database';
import { SessionStore } from '../session/session-store';
import { argsHash } from './decisions';
import { createApprovalServices } from './index';
import { rejectText } from './pending';
import { ApprovalCancelledError } from './request-ledger';
import { makeKit, traitsOf, type Kit } from './test-kit';

let k: Kit;
let sid: number;
beforeEach(async () => {
  k = await makeKit();
  sid = k.session({ title: 'Chat' });
});
afterEach(() => {
  vi.useRealTimers();
  k.close();
});

const status = (id: string) =>
  (k.db.prepare('SELECT status FROM chat_llm_tools WHERE tool_call_id = ?').get(id) as { status: string }).status;

function ask(
  toolCallId: string,
  toolName: string,
  args: Record<string, unknown>,
  extra: Partial<Parameters<Kit['pending']['requestApproval']>[0]> = {},
) {
  k.toolRow(sid, toolCallId, toolName, args);
  return k.pending.requestApproval({
    sessionId: sid,
    toolCallId,
    toolName,
    args,
    argsHash: argsHash(args),
    category: toolName === 'execute_cmd' ? 'shell' : null,
    agentId: 'main',
    source: 'web',
    ...extra,
  });
}

describe('requesting', () => {
  it('flips the row to pending before anyone waits, and emits the events', () => {
    const { requestId } = ask(
      'c1',
      'execute_cmd',
      { command: 'rm -rf build', workdir: k.workspace },
      { preview: { kind: 'command', text: '$ rm -rf build' } },
    );
    expect(status('c1')).toBe('pending');
    expect(k.sessionEvents).toEqual([
      {
        sessionId: sid,
        event: {
          type: 'pending_write',
          request_id: requestId,
          tool_call_id: 'c1',
          status: 'pending',
          path: '$ execute_cmd',
          old_content: null,
          new_content: '$ rm -rf build',
          args_hash: argsHash({ command: 'rm -rf build', workdir: k.workspace }),
        },
      },
    ]);
    expect(k.inboxEvents).toEqual([
      { type: 'approval_requested', request_id: requestId, tool_call_id: 'c1', tool_name: 'execute_cmd' },
    ]);
  });

  it("the card is shaped by the tool's preview, never by its name", () => {
    ask(
      'w1',
      'write_file',
      { path: join(k.workspace, 'a/b.txt'), content: 'new' },
      { preview: { kind: 'diff', path: 'a/b.txt', oldContent: 'old', newContent: 'new' } },
    );
    const long = 'x'.repeat(10_000);
    ask('m1', 'mcp__gmail__send', { body: long });
    // A write tool without a preview (too big) and an edit the tool would refuse: the full arguments, no diff.
    ask(
      'w2',
      'edit_file',
      { path: join(k.workspace, 'a/b.txt'), old_string: 'zzz', new_string: 'y' },
      { preview: { kind: 'refused', reason: 'old_string was not found in a/b.txt; nothing was changed.' } },
    );
    ask('c9', 'execute_cmd', { command: 'ls' }, { preview: null });
    const [write, other, refused, command] = k.sessionEvents.map((e) => e.event);
    expect(write).toMatchObject({ type: 'pending_write', path: 'a/b.txt', old_content: 'old', new_content: 'new' });
    expect(other).toMatchObject({
      type: 'approval_required',
      tool_name: 'mcp__gmail__send',
      arguments: JSON.stringify({ body: long }),
    });
    expect(refused).toMatchObject({ type: 'approval_required', tool_name: 'edit_file' });
    expect(command).toMatchObject({ type: 'approval_required', tool_name: 'execute_cmd' });
    const listed = k.pending.list().approvals.find((a) => a.tool_call_id === 'w2')!;
    expect(listed).toMatchObject({ refusal: expect.stringMatching(/not found/), old_content: null, new_content: null });
    expect(Object.keys(listed)).not.toContain('preview_path');
  });

  it('lists pending items with category, MCP server and context label', () => {
    const cron = k.session({ source: 'cron', title: 'Nightly report' });
    k.toolRow(cron, 'x1', 'mcp__gmail__send', {});
    k.pending.requestApproval({
      sessionId: cron,
      toolCallId: 'x1',
      toolName: 'mcp__gmail__send',
      args: {},
      argsHash: argsHash({}),
      category: null,
      agentId: 'main',
      source: 'cron',
    });
    ask('c2', 'execute_cmd', { command: 'ls' });
    const inbox = k.pending.list();
    expect(inbox.total).toBe(2);
    expect(
      inbox.approvals.map((a) => [a.tool_call_id, a.tool_category, a.mcp_server, a.context_label, a.live]),
    ).toEqual([
      ['x1', null, 'gmail', 'CronJob: Nightly report', true],
      ['c2', 'shell', null, 'Chat', true],
    ]);
  });

  it('approvals and clarifications share one monotonic id sequence', () => {
    const a = ask('a', 'execute_cmd', { command: 'ls' }).requestId;
    k.toolRow(sid, 'q', 'ask_user_clarification', {});
    const q = k.pending.requestClarification({
      sessionId: sid,
      toolCallId: 'q',
      title: 'Which?',
      question: 'A or B?',
      suggestedAnswers: ['A', 'B'],
    }).requestId;
    const b = ask('b', 'execute_cmd', { command: 'pwd' }).requestId;
    expect([a, q, b]).toEqual([a, a + 1, a + 2]);
  });
});

describe('resolving (I6)', () => {
  it("approve settles the waiter and tells the Inbox, with the tool_call_id (the chat hears it as the call's decision)", async () => {
    const args = { command: 'ls' };
    const { requestId, result } = ask('c1', 'execute_cmd', args);
    expect(k.pending.resolve(requestId, { action: 'approve', note: 'fine', argsHash: argsHash(args) })).toEqual({
      toolCallId: 'c1',
      sessionId: sid,
      approved: true,
    });
    await expect(result).resolves.toEqual({ approved: true, note: 'fine' });
    expect(k.sessionEvents.map((e) => e.event.type)).not.toContain('approval_resolved');
    expect(k.inboxEvents.at(-1)).toEqual({
      type: 'approval_resolved',
      request_id: requestId,
      tool_call_id: 'c1',
      approved: true,
    });
    expect(k.pending.list().total).toBe(0);
  });

  it('reject text has one form', async () => {
    expect(rejectText('too risky')).toBe('User rejected this tool call. Reason: too risky');
    expect(rejectText('  ')).toBe('User rejected this tool call.');
  });

  it('other arguments than were shown fail and change nothing', () => {
    const { requestId } = ask('c1', 'execute_cmd', { command: 'ls' });
    expect(() =>
      k.pending.resolve(requestId, { action: 'approve', argsHash: argsHash({ command: 'rm -rf /' }) }),
    ).toThrow(expect.objectContaining({ code: 'args_mismatch' }));
    expect(k.pending.list().total).toBe(1);
    expect(status('c1')).toBe('pending');
  });

  it('a decided id cannot be replayed; unknown ids and clarification ids are refused', () => {
    const args = { command: 'ls' };
    const { requestId } = ask('c1', 'execute_cmd', args);
    k.pending.resolve(requestId, { action: 'reject', argsHash: argsHash(args) });
    expect(() => k.pending.resolve(requestId, { action: 'approve', argsHash: argsHash(args) })).toThrow(
      expect.objectContaining({ code: 'already_decided' }),
    );
    expect(() => k.pending.resolve(4242, { action: 'approve', argsHash: argsHash(args) })).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
    k.toolRow(sid, 'q', 'ask_user_clarification', {});
    const q = k.pending.requestClarification({
      sessionId: sid,
      toolCallId: 'q',
      title: 't',
      question: 'q',
      suggestedAnswers: [],
    }).requestId;
    expect(() => k.pending.resolve(q, { action: 'approve', argsHash: argsHash({}) })).toThrow(/is a clarification/);
  });

  it('approve with a bypass: the narrowest offered scope by default, until expiry; 0 = until the session ends', async () => {
    const args = { command: 'ls -la' };
    const { requestId, result } = ask('c1', 'execute_cmd', args);
    k.pending.resolve(requestId, { action: 'approve', argsHash: argsHash(args), bypassSecs: 900 });
    expect((await result).bypass).toMatchObject({
      scope: { kind: 'command', commands: ['ls'] },
      label: '`ls *` commands',
      expiresAt: k.clock.now + 900_000,
      toolCallId: 'c1',
    });
    const next = k.call('execute_cmd', { command: 'ls src' }, { sessionId: sid, category: 'shell' });
    expect(k.gate.check(next).why.kind).toBe('bypass');
    expect(k.gate.check(k.call('execute_cmd', { command: 'rm x' }, { sessionId: sid, category: 'shell' })).action).toBe(
      'require',
    );
    k.clock.now += 900_001;
    expect(k.gate.check(next).action).toBe('require');

    const m = ask('m1', 'mcp__gh__push', {});
    k.pending.resolve(m.requestId, {
      action: 'approve',
      argsHash: argsHash({}),
      bypassSecs: 0,
      bypassScope: 'mcp_server',
    });
    expect((await m.result).bypass).toMatchObject({ scope: { kind: 'mcp_server', server: 'gh' }, expiresAt: null });
    expect(() => {
      const o = ask('o1', 'frob', {});
      k.pending.resolve(o.requestId, {
        action: 'approve',
        argsHash: argsHash({}),
        bypassSecs: 60,
        bypassScope: 'category',
      });
    }).toThrow(/not offered for frob; choose one of: tool, all/);
  });

  it('each item lists its bypass options, narrowest first, in the Inbox', () => {
    k.file('src/a.ts');
    ask('w1', 'edit_file', { path: join(k.workspace, 'src/a.ts') }, { category: 'filesystem' });
    ask('c1', 'execute_cmd', { command: 'git add . && git commit -m x' });
    ask('c2', 'execute_cmd', { command: 'echo $(cat x)' });
    ask('c3', 'execute_cmd', { command: 'cd src; npm test' });
    ask('m1', 'mcp__gh__push', {});
    const options = Object.fromEntries(
      k.pending.list().approvals.map((a) => [a.tool_call_id, a.bypass_options.map((o) => o.label)]),
    );
    expect(options).toEqual({
      w1: ['`edit_file` under `src/`', '`edit_file`, any arguments', 'every filesystem tool', 'every tool'],
      c1: ['`git *` commands', 'every shell tool', 'every tool'],
      c2: ['every shell tool', 'every tool'],
      c3: ['`cd *` and `npm *` commands', 'every shell tool', 'every tool'],
      m1: ['`mcp__gh__push`, any arguments', 'every tool of MCP server `gh`', 'every tool'],
    });
  });

  it('a reject never grants a bypass', async () => {
    const { requestId, result } = ask('c1', 'execute_cmd', { command: 'ls' });
    k.pending.resolve(requestId, { action: 'reject', argsHash: argsHash({ command: 'ls' }), bypassSecs: 900 });
    expect((await result).bypass).toBeUndefined();
    expect(k.bypass.list(sid)).toEqual([]);
  });
});

describe('cancellation and time', () => {
  it('cancelForSession drops the waiters (rejects), clears bypasses, leaves the row pending', async () => {
    k.bypass.grant(sid, { kind: 'all' }, null);
    const { result } = ask('c1', 'execute_cmd', { command: 'ls' });
    k.pending.cancelForSession(sid);
    await expect(result).rejects.toBeInstanceOf(ApprovalCancelledError);
    expect(status('c1')).toBe('pending');
    expect(k.bypass.list(sid)).toEqual([]);
    expect(k.pending.list().total).toBe(0);
  });

  it('a withdrawn approval or question is reported as withdrawn, never as a decision or an answer', async () => {
    const { requestId, result } = ask('c1', 'execute_cmd', { command: 'ls' });
    k.toolRow(sid, 'q', 'ask_user_clarification', {});
    const question = k.pending.requestClarification({
      sessionId: sid,
      toolCallId: 'q',
      title: 'Pick',
      question: 'A or B?',
      suggestedAnswers: [],
    });
    k.inboxEvents.length = 0;
    k.pending.cancelForSession(sid);
    await expect(result).rejects.toBeInstanceOf(ApprovalCancelledError);
    await expect(question.result).rejects.toBeInstanceOf(ApprovalCancelledError);
    expect(k.inboxEvents).toEqual([
      { type: 'request_withdrawn', request_id: requestId, tool_call_id: 'c1' },
      { type: 'request_withdrawn', request_id: question.requestId, tool_call_id: 'q' },
    ]);
    expect(
      k.db
        .prepare('SELECT outcome FROM approval_requests WHERE id IN (?, ?) ORDER BY id')
        .all(requestId, question.requestId),
    ).toEqual([{ outcome: 'cancelled' }, { outcome: 'cancelled' }]);
  });

  it('X7: an approval that times out resolves to deny', async () => {
    vi.useFakeTimers();
    const { requestId, result } = ask('c1', 'execute_cmd', { command: 'ls' }, { timeoutMs: 60_000 });
    vi.advanceTimersByTime(60_000);
    await expect(result).resolves.toMatchObject({ approved: false, timedOut: true });
    expect(() => k.pending.resolve(requestId, { action: 'approve', argsHash: argsHash({ command: 'ls' }) })).toThrow(
      /already decided \(timeout\)/,
    );
  });

  it('the GatePort adapter rejects when the turn is aborted', async () => {
    k.toolRow(sid, 'c1', 'execute_cmd', { command: 'ls' });
    const controller = new AbortController();
    const p = k.port.requestApproval({
      sessionId: sid,
      toolCallId: 'c1',
      toolName: 'execute_cmd',
      args: { command: 'ls' },
      argsHash: argsHash({ command: 'ls' }),
      category: 'shell',
      agentId: 'main',
      source: 'web',
      preview: null,
      signal: controller.signal,
    });
    controller.abort();
    await expect(p).rejects.toBeInstanceOf(ApprovalCancelledError);
    expect(status('c1')).toBe('pending');
  });
});

describe('X7: after a restart the pending items are asked again', () => {
  it('re-registers every pending row under a new id; old ids are dead; a decision waits for the resumed turn', async () => {
    const args = { command: 'make deploy' };
    const old = ask('c1', 'execute_cmd', args).requestId;
    k.toolRow(sid, 'q1', 'ask_user_clarification', {
      title: 'Env?',
      question: 'Which env?',
      suggested_answers: ['prod', 'dev'],
    });
    k.pending.requestClarification({
      sessionId: sid,
      toolCallId: 'q1',
      title: 'Env?',
      question: 'Which env?',
      suggestedAnswers: ['prod', 'dev'],
    });
    k.db.prepare('UPDATE chat_llm_tools SET args_hash = ? WHERE tool_call_id = ?').run(argsHash(args), 'c1');
    // The app quits: rows stay pending.
    const file = k.db.name;
    closeDatabase(k.db);
    const db = openDatabase({ file });
    k.db = db;
    const after = await createApprovalServices({
      traitsOf,
      db,
      toolRows: new SessionStore(db),
      workspaceDir: k.workspace,
      dataDir: k.dataDir,
      dbFile: file,
      emitSession: () => {},
      emitInbox: () => {},
      categoryOf: (n) => (n === 'execute_cmd' ? 'shell' : null),
    });
    expect(after.pending.reRegisterPendingFromDb()).toBe(2);
    const inbox = after.pending.list();
    const item = inbox.approvals[0]!;
    expect(item).toMatchObject({ tool_call_id: 'c1', tool_category: 'shell', live: false, args_hash: argsHash(args) });
    expect(item.request_id).toBeGreaterThan(old);
    expect(inbox.clarifications[0]).toMatchObject({
      tool_call_id: 'q1',
      title: 'Env?',
      suggested_answers: ['prod', 'dev'],
    });
    expect(() => after.pending.resolve(old, { action: 'approve', argsHash: argsHash(args) })).toThrow(
      expect.objectContaining({ code: 'already_decided' }),
    );

    const woke: string[] = [];
    after.pending.onDidResolveWithoutWaiter((e) => woke.push(e.toolCallId));
    after.pending.resolve(item.request_id, { action: 'approve', note: 'go', argsHash: argsHash(args) });
    expect(woke).toEqual(['c1']);
    // The resumed turn asks again for the same call: it gets the decision already taken.
    const resumed = after.pending.requestApproval({
      sessionId: sid,
      toolCallId: 'c1',
      toolName: 'execute_cmd',
      args,
      argsHash: argsHash(args),
      category: 'shell',
      agentId: 'main',
      source: 'web',
    });
    expect(resumed.requestId).toBe(item.request_id);
    await expect(resumed.result).resolves.toMatchObject({ approved: true, note: 'go' });
  });

  it('a resumed turn takes over a re-registered item under the same id', async () => {
    const args = { command: 'ls' };
    ask('c1', 'execute_cmd', args);
    k.db.prepare('UPDATE chat_llm_tools SET args_hash = ? WHERE tool_call_id = ?').run(argsHash(args), 'c1');
    const again = await createApprovalServices({
      traitsOf,
      db: k.db,
      toolRows: new SessionStore(k.db),
      workspaceDir: k.workspace,
      dataDir: k.dataDir,
      dbFile: k.db.name,
      emitSession: () => {},
      emitInbox: () => {},
    });
    again.pending.reRegisterPendingFromDb();
    const id = again.pending.list().approvals[0]!.request_id;
    const live = again.pending.requestApproval({
      sessionId: sid,
      toolCallId: 'c1',
      toolName: 'execute_cmd',
      args,
      argsHash: argsHash(args),
      category: 'shell',
      agentId: 'main',
      source: 'web',
    });
    expect(live.requestId).toBe(id);
    expect(again.pending.list().approvals[0]!.live).toBe(true);
    again.pending.resolve(id, { action: 'reject', note: 'no', argsHash: argsHash(args) });
    await expect(live.result).resolves.toMatchObject({ approved: false, note: 'no' });
  });
});

describe('re-registering while items are live', () => {
  it('is idempotent and keeps live ids answerable', async () => {
    const args = { command: 'ls' };
    const { requestId, result } = ask('c1', 'execute_cmd', args);
    expect(k.pending.reRegisterPendingFromDb()).toBe(0);
    expect(k.pending.list().approvals.map((a) => a.request_id)).toEqual([requestId]);
    k.pending.resolve(requestId, { action: 'approve', argsHash: argsHash(args) });
    await expect(result).resolves.toMatchObject({ approved: true });
    expect(k.db.prepare('SELECT outcome FROM approval_requests WHERE id = ?').get(requestId)).toEqual({
      outcome: 'approved',
    });
  });
});

describe('clarifications', () => {
  it('pending row, agent_question, answer resolves, inbox events', async () => {
    k.toolRow(sid, 'q', 'ask_user_clarification', {});
    const { requestId, result } = k.pending.requestClarification({
      sessionId: sid,
      toolCallId: 'q',
      title: 'Pick',
      question: '**A** or B?',
      suggestedAnswers: ['A'],
    });
    expect(status('q')).toBe('pending');
    expect(k.sessionEvents.at(-1)!.event).toMatchObject({
      type: 'agent_question',
      request_id: requestId,
      tool_call_id: 'q',
      question: '**A** or B?',
    });
    expect(k.pending.answerClarification(requestId, 'A')).toEqual({ toolCallId: 'q', sessionId: sid });
    await expect(result).resolves.toBe('A');
    expect(k.inboxEvents.map((e) => e.type)).toEqual(['clarification_requested', 'clarification_resolved']);
    expect(() => k.pending.answerClarification(requestId, 'B')).toThrow(/already decided/);
  });
});

describe('C4: the decision is written with the tool row, in one transaction', () => {
  const decision = {
    action: 'allow' as const,
    why: { kind: 'rule' as const, ruleId: 7, text: 'Allowed by rule 7' },
    actor: 'policy' as const,
  };
  it('both rows or neither', () => {
    k.toolRow(sid, 't1', 'read_file', {});
    const hash = argsHash({ path: '/x' });
    expect(() =>
      k.db.transaction(() => {
        k.db.prepare(`UPDATE chat_llm_tools SET status = 'done', args_hash = ? WHERE tool_call_id = 't1'`).run(hash);
        k.port.recordDecision({ toolCallId: 't1', sessionId: sid, decision, argsHash: hash });
        throw new Error('crash between the two');
      })(),
    ).toThrow('crash');
    expect(status('t1')).toBe('running');
    expect(k.db.prepare('SELECT COUNT(*) AS n FROM tool_decisions').get()).toEqual({ n: 0 });

    k.db.transaction(() => {
      k.db.prepare(`UPDATE chat_llm_tools SET status = 'done', args_hash = ? WHERE tool_call_id = 't1'`).run(hash);
      k.port.recordDecision({
        toolCallId: 't1',
        sessionId: sid,
        decision: { ...decision, actor: 'user' },
        argsHash: hash,
      });
    })();
    expect(
      k.db
        .prepare('SELECT tool_call_id, action, reason_kind, rule_id, detail, args_hash, actor FROM tool_decisions')
        .get(),
    ).toEqual({
      tool_call_id: 't1',
      action: 'allow',
      reason_kind: 'rule',
      rule_id: 7,
      detail: 'Allowed by rule 7',
      args_hash: hash,
      actor: 'user',
    });
  });

  it('the args hash is stable across key order and differs for other values', () => {
    expect(argsHash({ a: 1, b: { d: [1, 2], c: 'x' } })).toBe(argsHash({ b: { c: 'x', d: [1, 2] }, a: 1 }));
    expect(argsHash({ a: 1 })).not.toBe(argsHash({ a: 2 }));
    expect(argsHash({ a: [1, 2] })).not.toBe(argsHash({ a: [2, 1] }));
    expect(argsHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});

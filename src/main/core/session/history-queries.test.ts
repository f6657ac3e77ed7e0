/**
 * A history page costs the same anywhere in a long session (docs/performance.md "Performance targets"): the reads
 * of a page go straight to their range through an index (migration 111), never walking the session's other rows.
 * Checked by the query plans SQLite reports for the store's own SQL, on an empty database and again after ANALYZE
 * on a seeded one (where the planner has statistics to be tempted by another index), and by what a page returns
 * when a sub-agent's rows sit between the session's own.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { StackStore } from '../agents/stack-store';
import { recordDecision } from '../approval/decisions';
import { openDatabase, type Db } from '../db/database';
import { HISTORY_SQL, SessionStore } from './session-store';

afterAll(cleanupTempDirs);

function plan(db: Db, sql: string, args: unknown[]): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
}

function expectIndexed(db: Db): void {
  const page = plan(db, HISTORY_SQL.page, [1, null, 1_000, 101]);
  expect(page.join('\n')).toMatch(
    /SEARCH chat_history USING (COVERING )?INDEX chat_history_session_stack \(session_id=\? AND stack_id=\? AND id<\?\)/,
  );
  for (const [sql, args] of [
    [HISTORY_SQL.toolsForMessages, [1, null, 10, 20]],
    [HISTORY_SQL.toolsFrom, [1, null, 10]],
  ] as const) {
    const steps = plan(db, sql, [...args]);
    expect(steps[0]).toMatch(
      /^SEARCH t USING INDEX chat_llm_tools_session_message \(session_id=\? AND stack_id=\? AND message_id>\?/,
    );
    expect(steps.join('\n')).toContain('SEARCH d USING INTEGER PRIMARY KEY (rowid=?)');
    expect(steps.join('\n')).not.toMatch(/\bSCAN\b/);
  }
}

/** Two sessions of `exchanges` × (user, assistant with two calls, assistant text), through the store's writers. */
function seed(db: Db, exchanges: number): { store: SessionStore; sessionId: number } {
  const store = new SessionStore(db);
  const sessions = [store.createSession('a'), store.createSession('b')];
  store.transaction(() => {
    for (const sessionId of sessions) {
      for (let i = 0; i < exchanges; i++) {
        store.appendMessage({ sessionId, role: 'user', content: `question ${i}` });
        const messageId = store.appendMessage({ sessionId, role: 'assistant', content: '' });
        const keys = store.insertRoundTools(sessionId, messageId, [
          { id: 'a', name: 'read_file', arguments: '{}' },
          { id: 'b', name: 'list_files', arguments: '{}' },
        ]);
        for (const key of keys) {
          const decisionId = recordDecision(db, {
            toolCallId: key,
            sessionId,
            decision: { action: 'allow', why: { kind: 'fast_path', text: 'ok' }, actor: 'policy' },
            argsHash: 'h',
          });
          store.prepareTool(key, { effectiveArguments: '{}', argsHash: 'h', decisionId });
          store.finishTool(key, 'done', 'result');
        }
        store.appendMessage({ sessionId, role: 'assistant', content: `answer ${i}` });
      }
    }
  });
  return { store, sessionId: sessions[0]! };
}

/**
 * The session's other reads (and the cascade of a deleted session) after migration 114 dropped the `(session_id, id)`
 * indexes: each still starts from an index on the session, never a scan of every session's rows.
 */
function expectSessionReadsIndexed(db: Db): void {
  const store = new SessionStore(db);
  type Statements = { q: Record<string, { source: string }> };
  // The store's statements and its tool rows' (tool-rows.ts), read as SQLite will plan them.
  const q = { ...(store as unknown as Statements).q, ...(store as unknown as { tools: Statements }).tools.q };
  const last = plan(db, q.lastMessage!.source, [1]).join('\n');
  expect(last).toContain('SEARCH chat_history USING INTEGER PRIMARY KEY (rowid=?)');
  expect(last).toMatch(/SEARCH chat_history USING COVERING INDEX chat_history_session_stack \(session_id=\?\)/);
  for (const [name, args] of [
    ['contextMessages', [1, 0, null]],
    ['queued', [1]],
    ['usage', [1]],
    ['failQueued', [1]],
    ['failSessionTools', ['x', 0, 1]],
  ] as const) {
    const steps = plan(db, q[name]!.source, [...args]).join('\n');
    expect(steps, name).toMatch(/^SEARCH (chat_history|chat_llm_tools) USING /);
    expect(steps, name).not.toMatch(/\bSCAN\b/);
  }
  // The queued messages a round looks for: a probe of the partial index of queued rows, not the session's rows.
  for (const name of ['queued', 'failQueued', 'unqueue']) {
    expect(plan(db, q[name]!.source, [1]).join('\n'), name).toMatch(
      /^SEARCH chat_history USING (COVERING )?INDEX chat_history_queued \(session_id=\?\)/,
    );
  }
  const cascade = plan(db, 'DELETE FROM chat_sessions WHERE id = ?', [1]).join('\n');
  expect(cascade).toContain('SEARCH chat_history USING COVERING INDEX chat_history_session_stack (session_id=?)');
  expect(cascade).toContain('SEARCH chat_llm_tools USING COVERING INDEX chat_llm_tools_session_message (session_id=?)');
}

describe('history queries', () => {
  it('read a page through the history indexes on a fresh database', () => {
    const db = openDatabase({ file: join(tempDir(), 'plan.db') });
    expectIndexed(db);
    expectSessionReadsIndexed(db);
    db.close();
  });

  it('keep those plans once SQLite has statistics of a seeded database (ANALYZE)', () => {
    const db = openDatabase({ file: join(tempDir(), 'analyzed.db') });
    seed(db, 500);
    db.exec('ANALYZE');
    expectIndexed(db);
    expectSessionReadsIndexed(db);
    db.close();
  });

  it("the session's last message is its largest id, a sub-agent's included, whatever the other sessions hold", () => {
    const db = openDatabase({ file: join(tempDir(), 'last.db') });
    const { store, sessionId } = seed(db, 5);
    const other = store.createSession('later');
    const own = store.appendMessage({ sessionId, role: 'assistant', content: 'own' });
    store.appendMessage({ sessionId: other, role: 'user', content: 'elsewhere' });
    expect(store.lastMessage(sessionId)?.id).toBe(own);
    const stackId = new StackStore(db).open({
      sessionId,
      agentId: 'helper',
      prompt: 'p',
      depth: 1,
      parentToolCallId: 'tc_y',
    });
    const child = store.appendMessage({ sessionId, stackId, role: 'assistant', content: 'child' });
    expect(store.lastMessage(sessionId)?.id).toBe(child);
    expect(store.lastMessage(other)?.content).toBe('elsewhere');
    expect(store.lastMessage(store.createSession('empty'))).toBeUndefined();
    db.close();
  });

  it("a page holds exactly its messages' tool rows, the newest first in pages, a sub-agent's rows apart", () => {
    const db = openDatabase({ file: join(tempDir(), 'page.db') });
    const { store, sessionId } = seed(db, 30);
    // A sub-agent's stack in the middle of the session: its rows are its own history, never the session's page.
    const stackId = new StackStore(db).open({
      sessionId,
      agentId: 'helper',
      prompt: 'p',
      depth: 1,
      parentToolCallId: 'tc_x',
    });
    const childMessage = store.appendMessage({ sessionId, stackId, role: 'assistant', content: 'child' });
    const [childCall] = store.insertRoundTools(
      sessionId,
      childMessage,
      [{ id: 'c', name: 'read_file', arguments: '{}' }],
      stackId,
    );
    store.appendMessage({ sessionId, role: 'user', content: 'after the child' });

    const seen: number[] = [];
    let before = Number.MAX_SAFE_INTEGER;
    for (;;) {
      const page = store.page(sessionId, before, 7);
      for (const t of page.tools) expect(page.messages.some((m) => m.id === t.message_id)).toBe(true);
      expect(page.tools.map((t) => t.tool_call_id)).not.toContain(childCall);
      expect(page.tools.every((t) => t.latest_decision?.includes('"allow"'))).toBe(true);
      seen.unshift(...page.messages.map((m) => m.id));
      if (!page.hasMore) break;
      before = page.messages[0]!.id;
    }
    expect(seen).toHaveLength(30 * 3 + 1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen).not.toContain(childMessage);
    const child = store.page(sessionId, Number.MAX_SAFE_INTEGER, 10, stackId);
    expect(child.messages.map((m) => m.id)).toEqual([childMessage]);
    expect(child.tools.map((t) => t.tool_call_id)).toEqual([childCall]);
    db.close();
  });
});

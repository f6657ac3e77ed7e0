/**
 * The indexes of the tables every tool call writes (docs/performance.md "What keeps the waited-on paths fast"):
 * each index is a page the round's first commit writes into the log, so the set is held here and a new one is a
 * decision, not an accident. Migration 114 dropped the two that only repeated a prefix of migration 111's; migration
 * 116 the audit's index by call, whose one read (a card's latest decision) follows the tool row's pointer instead. An
 * older database keeps its rows through both, and its reads still find them.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { SessionStore, UNFINISHED_TOOLS } from '../session/session-store';
import { pagesSince, readWalCommits } from '../../../../test/helpers/wal-commits';
import { openDatabase, type Db } from './database';
import { applyMigrations } from './migrate';
import { migrations } from './migrations/index';

afterAll(cleanupTempDirs);

function indexes(db: Db, table: string): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name").all(table) as {
      name: string;
    }[]
  ).map((r) => r.name);
}

const EXPECTED = {
  chat_history: ['chat_history_queued', 'chat_history_session_stack', 'chat_history_stack'],
  chat_llm_tools: [
    'chat_llm_tools_active',
    'chat_llm_tools_provider_call',
    'chat_llm_tools_session_message',
    'chat_llm_tools_stack',
    'sqlite_autoindex_chat_llm_tools_1',
  ],
  tool_decisions: [] as string[],
};

/** Rows written as the app before migration 116 wrote them (its statements, not today's store). */
function oldRound(
  db: Database.Database,
  sessionId: number,
  key: string,
  decisions: { action: string; actor: string }[],
): number {
  const messageId = Number(
    db
      .prepare(
        "INSERT INTO chat_history (session_id, role, content, metadata, created_at) VALUES (?, 'assistant', '', '{\"queued\":0}', 1)",
      )
      .run(sessionId).lastInsertRowid,
  );
  db.prepare(
    "INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, status, created_at, updated_at) VALUES (?, 'a', ?, ?, 'read_file', '{}', 'done', 1, 1)",
  ).run(key, sessionId, messageId);
  for (const d of decisions) {
    db.prepare(
      "INSERT INTO tool_decisions (tool_call_id, session_id, action, reason_kind, detail, args_hash, actor, created_at) VALUES (?, ?, ?, 'rule', ?, 'h', ?, 1)",
    ).run(key, sessionId, d.action, `${d.actor} ${d.action}`, d.actor);
  }
  return messageId;
}

describe('indexes of the tool-call tables', () => {
  it('are exactly the ones the reads need, on a new database', () => {
    const db = openDatabase({ file: join(tempDir(), 'new.db') });
    for (const [table, names] of Object.entries(EXPECTED)) expect(indexes(db, table)).toEqual(names);
    db.close();
  });

  it('an older database loses the two repeated indexes and keeps its rows, found the same way', () => {
    const file = join(tempDir(), 'v113.db');
    const old = new Database(file);
    applyMigrations(
      old,
      migrations.filter((m) => m.version < 114),
    );
    expect(indexes(old, 'chat_history')).toContain('chat_history_session');
    expect(indexes(old, 'chat_llm_tools')).toContain('chat_llm_tools_session');
    const sessionId = Number(
      old.prepare("INSERT INTO chat_sessions (title, created_at, updated_at) VALUES ('old', 1, 1)").run()
        .lastInsertRowid,
    );
    const first = Number(
      old
        .prepare(
          "INSERT INTO chat_history (session_id, role, content, metadata, created_at) VALUES (?, 'user', 'hello', '{\"queued\":0}', 1)",
        )
        .run(sessionId).lastInsertRowid,
    );
    const key = 'tc_old';
    const answer = oldRound(old, sessionId, key, []);
    old.close();

    const db = openDatabase({ file });
    for (const [table, names] of Object.entries(EXPECTED)) expect(indexes(db, table)).toEqual(names);
    const store = new SessionStore(db);
    expect(store.lastMessage(sessionId)?.id).toBe(answer);
    const page = store.page(sessionId, Number.MAX_SAFE_INTEGER, 10);
    expect(page.messages.map((m) => m.id)).toEqual([first, answer]);
    expect(page.tools.map((t) => t.tool_call_id)).toEqual([key]);
    db.close();
  });

  it("an older database's tool rows point at their latest decision once the audit's index is gone", () => {
    const file = join(tempDir(), 'v115.db');
    const old = new Database(file);
    applyMigrations(
      old,
      migrations.filter((m) => m.version < 116),
    );
    expect(indexes(old, 'tool_decisions')).toEqual(['tool_decisions_call']);
    const sessionId = Number(
      old.prepare("INSERT INTO chat_sessions (title, created_at, updated_at) VALUES ('old', 1, 1)").run()
        .lastInsertRowid,
    );
    const other = Number(
      old.prepare("INSERT INTO chat_sessions (title, created_at, updated_at) VALUES ('other', 1, 1)").run()
        .lastInsertRowid,
    );
    // Asked, then allowed by the person; a call of another session in between; a call the gate never saw.
    oldRound(old, sessionId, 'tc_asked', [{ action: 'require', actor: 'policy' }]);
    oldRound(old, other, 'tc_other', [{ action: 'deny', actor: 'policy' }]);
    old
      .prepare(
        "INSERT INTO tool_decisions (tool_call_id, session_id, action, reason_kind, detail, args_hash, actor, created_at) VALUES ('tc_asked', ?, 'allow', 'human', 'user allow', 'h', 'user', 2)",
      )
      .run(sessionId);
    oldRound(old, sessionId, 'tc_never', []);
    old.close();

    const db = openDatabase({ file });
    for (const [table, names] of Object.entries(EXPECTED)) expect(indexes(db, table)).toEqual(names);
    const store = new SessionStore(db);
    const latest = (key: string) =>
      store.page(sessionId, Number.MAX_SAFE_INTEGER, 10).tools.find((t) => t.tool_call_id === key)?.latest_decision ??
      null;
    expect(JSON.parse(latest('tc_asked')!)).toEqual({
      action: 'allow',
      why: { kind: 'human', ruleId: null, text: 'user allow' },
      actor: 'user',
    });
    expect(latest('tc_never')).toBeNull();
    expect(JSON.parse(store.page(other, Number.MAX_SAFE_INTEGER, 10).tools[0]!.latest_decision!).action).toBe('deny');
    // The audit keeps every decision.
    expect(db.prepare('SELECT count(*) AS n FROM tool_decisions').get()).toEqual({ n: 3 });
    db.close();
  });

  it("a call's result writes two pages however many ended calls the history holds (migration 117)", () => {
    const file = join(tempDir(), 'ended.db');
    const db = openDatabase({ file });
    const store = new SessionStore(db);
    const sessionId = store.createSession('long');
    // 3,000 ended calls, a fifth of them failed or rejected: their entries sat between `done` and `running`.
    const statuses = ['done', 'done', 'done', 'failed', 'rejected'] as const;
    db.transaction(() => {
      for (let i = 0; i < 3_000; i++) {
        const messageId = store.appendMessage({ sessionId, role: 'assistant', content: '' });
        const [key] = store.insertRoundTools(sessionId, messageId, [{ id: 'c', name: 'read_file', arguments: '{}' }]);
        store.finishTool(key!, statuses[i % statuses.length]!, 'x');
      }
    })();
    const messageId = store.appendMessage({ sessionId, role: 'assistant', content: '' });
    const [key] = store.insertRoundTools(sessionId, messageId, [{ id: 'c', name: 'read_file', arguments: '{}' }]);
    store.setToolStatus(key!, 'running');
    db.pragma('wal_autocheckpoint = 0');
    const before = readWalCommits(file);
    store.transaction(() => store.finishTool(key!, 'done', 'ok'));
    expect(pagesSince(before, readWalCommits(file))).toBe(2); // the row's leaf and the active index's one page
    db.close();
  });

  it('the reads of unfinished calls go through an index, never a walk of every call', () => {
    const db = openDatabase({ file: join(tempDir(), 'plans.db') });
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
    for (const sql of [
      `SELECT * FROM chat_llm_tools WHERE ${UNFINISHED_TOOLS} AND stack_id IS NULL ORDER BY id`,
      `UPDATE chat_llm_tools SET status = 'failed' WHERE stack_id IS NOT NULL AND ${UNFINISHED_TOOLS}`,
      `SELECT t.* FROM chat_llm_tools t JOIN chat_sessions s ON s.id = t.session_id WHERE t.${UNFINISHED_TOOLS} AND t.status = 'pending' ORDER BY t.id`,
    ]) {
      expect(plan(sql)).toContain('USING INDEX chat_llm_tools_active');
    }
    // One session's: its own rows, through the session's index.
    expect(plan(`UPDATE chat_llm_tools SET status = 'failed' WHERE session_id = 1 AND ${UNFINISHED_TOOLS}`)).toMatch(
      /USING INDEX chat_llm_tools_(active|session_message)/,
    );
    db.close();
  });

  it("an older database's unfinished calls are found after the index becomes partial", () => {
    const file = join(tempDir(), 'v116.db');
    const old = new Database(file);
    applyMigrations(
      old,
      migrations.filter((m) => m.version < 117),
    );
    expect(indexes(old, 'chat_llm_tools')).toContain('chat_llm_tools_status');
    const sessionId = Number(
      old.prepare("INSERT INTO chat_sessions (title, created_at, updated_at) VALUES ('old', 1, 1)").run()
        .lastInsertRowid,
    );
    oldRound(old, sessionId, 'tc_ended', []);
    const messageId = oldRound(old, sessionId, 'tc_done_too', []);
    old
      .prepare(
        "INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, status, created_at, updated_at) VALUES ('tc_running', 'b', ?, ?, 'read_file', '{}', 'running', 1, 1)",
      )
      .run(sessionId, messageId);
    old
      .prepare(
        "INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, status, created_at, updated_at) VALUES ('tc_pending', 'c', ?, ?, 'write_file', '{}', 'pending', 1, 1)",
      )
      .run(sessionId, messageId);
    old.close();

    const db = openDatabase({ file });
    expect(indexes(db, 'chat_llm_tools')).toEqual(EXPECTED.chat_llm_tools);
    expect(new SessionStore(db).activeTools().map((t) => t.tool_call_id)).toEqual(['tc_running', 'tc_pending']);
    db.close();
  });
});

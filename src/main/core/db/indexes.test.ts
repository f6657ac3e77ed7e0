/**
 * The indexes of the tables every tool call writes (docs/architecture.md "What keeps the waited-on paths fast"):
 * each index is a page the round's first commit writes into the log, so the set is held here and a new one is a
 * decision, not an accident. Migration 114 dropped the two that only repeated a prefix of migration 111's; an older
 * database keeps its rows through it, and its reads still find them through the remaining indexes.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { SessionStore } from '../session/session-store';
import { openDatabase, type Db } from './database';
import { applyMigrations } from './migrate';
import { migrations } from './migrations/index';

afterAll(cleanupTempDirs);

function indexes(db: Db, table: string): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? ORDER BY name").all(table) as { name: string }[]).map((r) => r.name);
}

const EXPECTED = {
  chat_history: ['chat_history_queued', 'chat_history_session_stack', 'chat_history_stack'],
  chat_llm_tools: ['chat_llm_tools_provider_call', 'chat_llm_tools_session_message', 'chat_llm_tools_stack', 'chat_llm_tools_status', 'sqlite_autoindex_chat_llm_tools_1'],
  tool_decisions: ['tool_decisions_call'],
};

describe('indexes of the tool-call tables', () => {
  it('are exactly the ones the reads need, on a new database', () => {
    const db = openDatabase({ file: join(tempDir(), 'new.db') });
    for (const [table, names] of Object.entries(EXPECTED)) expect(indexes(db, table)).toEqual(names);
    db.close();
  });

  it('an older database loses the two repeated indexes and keeps its rows, found the same way', () => {
    const file = join(tempDir(), 'v113.db');
    const old = new Database(file);
    applyMigrations(old, migrations.filter((m) => m.version < 114));
    expect(indexes(old, 'chat_history')).toContain('chat_history_session');
    expect(indexes(old, 'chat_llm_tools')).toContain('chat_llm_tools_session');
    const before = new SessionStore(old);
    const sessionId = before.createSession('old');
    const first = before.appendMessage({ sessionId, role: 'user', content: 'hello' });
    const answer = before.appendMessage({ sessionId, role: 'assistant', content: '' });
    const [key] = before.insertRoundTools(sessionId, answer, [{ id: 'a', name: 'read_file', arguments: '{}' }]);
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
});

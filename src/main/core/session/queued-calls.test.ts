/**
 * A call queued behind an approval is shown queued, never running (docs/chat-ui.md "Cards follow their row"): a
 * round's calls run one after another, so while the first waits for the person the rest have not started. Real
 * core, real SQLite, the scripted LLM; the row, its events and the card (history) all say `queued` until the
 * call's turn comes. The migration that allows the state is tested on a database built at the schema before it.
 */
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { openDatabase } from '../db/database';
import { applyMigrations } from '../db/migrate';
import { migrations } from '../db/migrations/index';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

const round = [
  { name: 'write_file', arguments: { path: 'first.txt', content: '1' } },
  { name: 'read_file', arguments: { path: 'notes.txt' } },
];

async function startRoundWaitingForApproval() {
  h = await startHarness({ turns: [{ toolCalls: round }, { text: 'both done' }] });
  writeFileSync(join(h.workspace, 'notes.txt'), 'hello');
  const sessionId = await h.newSession();
  await h.call('chat:send', { sessionId, content: 'write, then read' });
  const pending = await h.waitForEvent('pending_write');
  const starts = h.events.filter((e) => e.type === 'tool_start');
  expect(starts).toHaveLength(2);
  const [first, second] = starts.map((e) => (e as { tool_call_id: string }).tool_call_id) as [string, string];
  return { sessionId, pending, first, second };
}

const cardsOf = async (sessionId: number) =>
  (await h!.call('chat:history', { sessionId })).messages.flatMap((m) => m.tools);
const rowStatus = (id: string) =>
  (h!.core.db.prepare('SELECT status FROM chat_llm_tools WHERE tool_call_id = ?').get(id) as { status: string }).status;

describe('a call behind an approval', () => {
  it('is queued (row, events, card) while the first waits, and runs once the first is approved', async () => {
    const { sessionId, pending, first, second } = await startRoundWaitingForApproval();
    expect(rowStatus(first)).toBe('pending');
    expect(rowStatus(second)).toBe('queued');
    expect((await cardsOf(sessionId)).map((c) => [c.tool_call_id, c.status])).toEqual([
      [first, 'pending'],
      [second, 'queued'],
    ]);
    // Nothing about the second call yet but its start: the gate has not seen it.
    expect(h!.events.filter((e) => 'tool_call_id' in e && e.tool_call_id === second).map((e) => e.type)).toEqual([
      'tool_start',
    ]);

    await h!.call('inbox:resolveApproval', {
      requestId: pending.request_id,
      action: 'approve',
      note: '',
      argsHash: pending.args_hash,
    });
    await h!.waitForEvent('done');
    const ofSecond = h!.events.filter((e) => 'tool_call_id' in e && e.tool_call_id === second).map((e) => e.type);
    expect(ofSecond).toEqual(['tool_start', 'tool_decision', 'tool_done']);
    expect((await cardsOf(sessionId)).map((c) => c.status)).toEqual(['done', 'done']);
  });

  it('/stop while the first waits: the queued call ends cancelled, never started', async () => {
    const { sessionId, second } = await startRoundWaitingForApproval();
    await h!.call('chat:stop', { sessionId });
    await h!.waitForEvent('cancelled');
    expect(await h!.waitForEvent('tool_cancelled', (e) => e.tool_call_id === second)).toMatchObject({
      note: 'Not started: the turn was stopped.',
    });
    expect(rowStatus(second)).toBe('cancelled');
  });
});

describe('migration 112 (queued tool rows)', () => {
  it('keeps every row, column and index of an existing database, and then accepts queued', () => {
    const file = join(tempDir(), 'old.db');
    const old = new Database(file);
    old.pragma('foreign_keys = ON');
    applyMigrations(
      old,
      migrations.filter((m) => m.version < 112),
    );
    const now = Date.now();
    old.prepare("INSERT INTO chat_sessions (title, created_at, updated_at) VALUES ('s', ?, ?)").run(now, now);
    const msg = Number(
      old
        .prepare("INSERT INTO chat_history (session_id, role, content, created_at) VALUES (1, 'assistant', '', ?)")
        .run(now).lastInsertRowid,
    );
    const insert = old.prepare(
      'INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, status, result, created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)',
    );
    insert.run('tc_a', 'call_1', msg, 'list_files', '{}', 'done', 'a\nb', now, now);
    insert.run('tc_b', 'call_2', msg, 'write_file', '{"path":"x"}', 'running', null, now, now);
    expect(() => insert.run('tc_c', 'call_3', msg, 'x', '{}', 'queued', null, now, now)).toThrow(/CHECK constraint/);
    const columns = old.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all('chat_llm_tools');
    const indexes = old
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'chat_llm_tools' ORDER BY name")
      .all();
    const rows = old.prepare('SELECT * FROM chat_llm_tools ORDER BY id').all();
    old.close();

    // Up to this migration: a later one may change the index set on purpose (114: db/indexes.test.ts).
    const db = openDatabase({ file, migrations: migrations.filter((m) => m.version <= 112) });
    expect(db.prepare('SELECT * FROM chat_llm_tools ORDER BY id').all()).toEqual(rows);
    expect(db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all('chat_llm_tools')).toEqual(columns);
    expect(
      db
        .prepare(
          "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'chat_llm_tools' ORDER BY name",
        )
        .all(),
    ).toEqual(indexes);
    db.prepare(
      "INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, status, created_at, updated_at) VALUES ('tc_c', 'call_3', 1, ?, 'x', '{}', 'queued', ?, ?)",
    ).run(msg, now, now);
    expect(() => db.prepare("UPDATE chat_llm_tools SET status = 'sleeping' WHERE tool_call_id = 'tc_c'").run()).toThrow(
      /CHECK constraint/,
    );
    // The keys still hold: a second row with the same key, or a repeated provider id in one message, is refused.
    expect(() =>
      db
        .prepare(
          "INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, created_at, updated_at) VALUES ('tc_a', 'z', 1, ?, 'x', '{}', ?, ?)",
        )
        .run(msg, now, now),
    ).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, created_at, updated_at) VALUES ('tc_d', 'call_1', 1, ?, 'x', '{}', ?, ?)",
        )
        .run(msg, now, now),
    ).toThrow(/UNIQUE/);
    // Deleting the session still takes its rows with it (the foreign keys came along).
    db.prepare('DELETE FROM chat_sessions WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM chat_llm_tools').get()).toEqual({ n: 0 });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();
  });
});

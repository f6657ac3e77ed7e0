/**
 * A tool row has its own key: a model that reuses its call ids (across rounds, sessions, or within one message) is
 * served normally, and the replayed history pairs each call with its own result. Real core, real SQLite, the
 * scripted LLM over both wire formats. The migration of an existing database is tested on a file built at the old
 * schema.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { openDatabase } from '../db/database';
import { applyMigrations } from '../db/migrate';
import { migrations } from '../db/migrations/index';
import { SessionStore, uniqueWithinMessage } from './session-store';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

/** The (id, result) pairs a request replayed, in the OpenAI or Anthropic wire shape. */
function replayedPairs(body: Record<string, unknown>): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  for (const m of body.messages as {
    role: string;
    tool_calls?: { id: string }[];
    tool_call_id?: string;
    content?: unknown;
  }[]) {
    for (const c of m.tool_calls ?? []) calls.push(c.id);
    if (m.role === 'tool' && m.tool_call_id) results.push(m.tool_call_id);
    if (Array.isArray(m.content)) {
      for (const part of m.content as { type: string; id?: string; tool_use_id?: string }[]) {
        if (part.type === 'tool_use') calls.push(part.id!);
        if (part.type === 'tool_result') results.push(part.tool_use_id!);
      }
    }
  }
  return { calls, results };
}

describe.each(['openai_compatible', 'anthropic'] as const)('reused tool-call ids (%s wire)', (providerKind) => {
  it('the same id in two rounds, in a second session, and twice in one message: every call runs, the turn ends', async () => {
    const reused = providerKind === 'anthropic' ? 'toolu_1' : 'call_1';
    const list = { id: reused, name: 'list_files', arguments: { path: '.' } };
    h = await startHarness({
      providerKind,
      turns: [
        { toolCalls: [list] },
        { toolCalls: [list, { ...list, arguments: { path: '.', max_depth: 1 } }] },
        { text: 'first session done' },
        { toolCalls: [list] },
        { text: 'second session done' },
      ],
    });
    const first = await h.newSession();
    const events = await h.sendAndSettle(first, 'list twice');
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(events.filter((e) => e.type === 'tool_done')).toHaveLength(3);
    expect(events.find((e) => e.type === 'done')).toMatchObject({ content: 'first session done' });

    // Each call has its own key in events and cards; none is the model's id.
    const keys = events.filter((e) => e.type === 'tool_start').map((e) => (e as { tool_call_id: string }).tool_call_id);
    expect(new Set(keys).size).toBe(3);
    expect(keys).not.toContain(reused);

    // What the model was sent back: its own id while it is unique in the request, every repeat (across rounds or
    // within one message) made distinct, each call paired with one result (llm/messages.ts `wireIds`).
    const last = replayedPairs(h.llm.requests[2]!.body);
    expect(last.calls[0]).toBe(reused);
    expect(new Set(last.calls).size).toBe(3);
    expect(last.results).toEqual(last.calls);

    const second = await h.newSession();
    const again = await h.sendAndSettle(second, 'list again');
    expect(again.filter((e) => e.type === 'error')).toEqual([]);
    expect(again.find((e) => e.type === 'done')).toMatchObject({ content: 'second session done' });
    const cards = (await h.call('chat:history', { sessionId: second })).messages.flatMap((m) => m.tools);
    expect(cards.map((c) => c.status)).toEqual(['done']);
    expect(keys).not.toContain(cards[0]!.tool_call_id);
  });
});

describe('provider ids within one message', () => {
  it('empty and repeated ids become distinct; distinct ids are kept as they are', () => {
    expect(uniqueWithinMessage(['a', 'b'])).toEqual(['a', 'b']);
    expect(uniqueWithinMessage(['a', 'a', 'a'])).toEqual(['a', 'a_2', 'a_3']);
    expect(uniqueWithinMessage(['', ''])).toEqual(['call_1', 'call_2']);
    expect(uniqueWithinMessage(['a', 'a_2', 'a'])).toEqual(['a', 'a_2', 'a_3']);
  });
});

describe('minted keys', () => {
  it("are unique within a store and across stores of the same file (another run's), never the model's", () => {
    const file = join(tempDir('skald-keys-'), 'skald.db');
    const first = openDatabase({ file });
    const second = openDatabase({ file });
    try {
      const keys = [new SessionStore(first), new SessionStore(second), new SessionStore(first)].flatMap((store) =>
        Array.from({ length: 1_000 }, () => store.mintToolKey()),
      );
      expect(new Set(keys).size).toBe(keys.length);
      for (const key of keys) expect(key).toMatch(/^tc_[0-9a-f-]{36}_[0-9a-z]+$/);
    } finally {
      first.close();
      second.close();
    }
  });
});

describe('migration 44 (tool row key)', () => {
  it('an existing database keeps its rows, copies their ids as provider ids, and then accepts a reused id', () => {
    const file = join(tempDir(), 'old.db');
    const old = new Database(file);
    applyMigrations(
      old,
      migrations.filter((m) => m.version < 44),
    );
    const now = Date.now();
    old.prepare("INSERT INTO chat_sessions (title, created_at, updated_at) VALUES ('s', ?, ?)").run(now, now);
    const msg = Number(
      old
        .prepare("INSERT INTO chat_history (session_id, role, content, created_at) VALUES (1, 'assistant', '', ?)")
        .run(now).lastInsertRowid,
    );
    old
      .prepare(
        "INSERT INTO chat_llm_tools (tool_call_id, session_id, message_id, name, arguments, status, created_at, updated_at) VALUES ('call_1', 1, ?, 'list_files', '{}', 'done', ?, ?)",
      )
      .run(msg, now, now);
    // The old schema is what failed: the same provider id in a later message is refused.
    const msg2 = Number(
      old
        .prepare("INSERT INTO chat_history (session_id, role, content, created_at) VALUES (1, 'assistant', '', ?)")
        .run(now).lastInsertRowid,
    );
    expect(() =>
      old
        .prepare(
          "INSERT INTO chat_llm_tools (tool_call_id, session_id, message_id, name, arguments, created_at, updated_at) VALUES ('call_1', 1, ?, 'x', '{}', ?, ?)",
        )
        .run(msg2, now, now),
    ).toThrow(/UNIQUE constraint failed: chat_llm_tools.tool_call_id/);
    old.close();

    const db = openDatabase({ file });
    expect(db.prepare('SELECT tool_call_id, provider_call_id, status FROM chat_llm_tools').all()).toEqual([
      { tool_call_id: 'call_1', provider_call_id: 'call_1', status: 'done' },
    ]);
    db.prepare(
      "INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, created_at, updated_at) VALUES ('tc_new', 'call_1', 1, ?, 'x', '{}', ?, ?)",
    ).run(msg2, now, now);
    // Within one message the provider id is still unique.
    expect(() =>
      db
        .prepare(
          "INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, message_id, name, arguments, created_at, updated_at) VALUES ('tc_other', 'call_1', 1, ?, 'x', '{}', ?, ?)",
        )
        .run(msg2, now, now),
    ).toThrow(/UNIQUE/);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });
});

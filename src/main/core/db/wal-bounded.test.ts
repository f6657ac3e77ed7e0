/**
 * The write-ahead log stays bounded (check D7 in docs/security-checks.md): a read held open on a second connection
 * while the app writes makes the `-wal` file grow (SQLite cannot restart the log under a reader: checkpoint
 * starvation), and it keeps that size after the read ends. Proven on the app's own database and store: once the read
 * ends, the idle checkpoint (wal-keeper.ts) empties the file, steady writes cut it to `journal_size_limit`, and quit
 * empties it too. An idle checkpoint that a reader still blocks gives up at once instead of holding the main thread.
 * A log within the limit is copied whole at idle but keeps its size, so the next turn's commits overwrite it in place
 * instead of growing the file (an fsync that grows a file costs more: docs/architecture.md).
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { SessionStore } from '../session/session-store';
import { closeDatabase, openDatabase, WAL_SIZE_LIMIT_BYTES, type Db } from './database';
import { startWalKeeper } from './wal-keeper';

/** What "grew" means here: well past what SQLite's own checkpoints let the log reach (1000 pages, ~4 MB). */
const GROWN_BYTES = 12 * 1024 * 1024;
const PAGE = 'a message of the long chat '.repeat(150); // ~4 KB: about one page each

let h: Harness | undefined;
const opened: Database.Database[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) if (db.open) db.close();
  await h?.close();
  h = undefined;
  cleanupTempDirs();
});

const walBytes = (dbFile: string) => (existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size : 0);

/** Another connection (a `sqlite3` shell, a backup tool) that reads and keeps its snapshot until `end`. */
function openReader(dbFile: string): { end(): void } {
  const reader = new Database(dbFile, { readonly: true });
  opened.push(reader);
  reader.exec('BEGIN');
  expect((reader.prepare('SELECT count(*) AS n FROM chat_history').get() as { n: number }).n).toBeGreaterThanOrEqual(0);
  return { end: () => reader.exec('COMMIT') };
}

/** Writes `count` messages through the app's session store, 50 to a commit (as fast as the disk allows). */
function writeMessages(store: SessionStore, sessionId: number, count: number): void {
  for (let done = 0; done < count; done += 50) {
    store.transaction(() => {
      for (let i = done; i < Math.min(count, done + 50); i++)
        store.appendMessage({ sessionId, role: 'user', content: `${i} ${PAGE}` });
    });
  }
}

describe('D7: the WAL stays bounded', () => {
  it('after a long read ends, the idle checkpoint empties the log; while the read lasts it gives up at once', () => {
    const file = join(tempDir(), 'skald.db');
    const db: Db = openDatabase({ file });
    opened.push(db);
    const keeper = startWalKeeper(db, file, { intervalMs: 3_600_000 }); // stepped by hand below
    const store = new SessionStore(db);
    const sessionId = store.createSession('long chat');

    const read = openReader(file);
    writeMessages(store, sessionId, 3_500);
    const grown = walBytes(file);
    expect(grown).toBeGreaterThan(GROWN_BYTES); // the starvation is real: the log grew under the reader

    expect(keeper.tick().outcome).toBe('writing'); // written since the last look: not idle yet
    expect(keeper.tick()).toEqual({ outcome: 'busy', walBytes: grown }); // idle, but the reader holds the log
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000); // the connection's own wait is back

    read.end();
    expect(walBytes(file)).toBe(grown); // the read ending does not shrink the file by itself
    expect(keeper.tick()).toEqual({ outcome: 'truncated', walBytes: 0 });
    expect(walBytes(file)).toBe(0);
    expect(keeper.tick().outcome).toBe('empty');

    // Nothing was lost on the way.
    expect(
      (db.prepare('SELECT count(*) AS n FROM chat_history WHERE session_id = ?').get(sessionId) as { n: number }).n,
    ).toBe(3_500);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    keeper.dispose();
  });

  it('a log within the size limit: the idle checkpoint copies it whole into the database and keeps the file, which the next writes overwrite in place', () => {
    const dir = tempDir();
    const file = join(dir, 'skald.db');
    const db = openDatabase({ file });
    opened.push(db);
    const keeper = startWalKeeper(db, file, { intervalMs: 3_600_000 }); // stepped by hand below
    const store = new SessionStore(db);
    const sessionId = store.createSession('chat');
    // A reader whose snapshot is older than the writes: its read keeps them from being copied.
    const read = openReader(file);
    writeMessages(store, sessionId, 300); // about 300 pages: under SQLite's own checkpoint at 1000
    const size = walBytes(file);
    expect(size).toBeGreaterThan(300 * 4096);
    expect(size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);

    // While the read lasts, the idle checkpoint gives up at once, as for a grown log.
    expect(keeper.tick().outcome).toBe('writing');
    expect(keeper.tick()).toEqual({ outcome: 'busy', walBytes: size });
    read.end();

    expect(keeper.tick()).toEqual({ outcome: 'restarted', walBytes: size });
    expect(keeper.tick()).toEqual({ outcome: 'copied', walBytes: size }); // nothing left to copy: no checkpoint again
    // The database file alone holds every message: a copy of it without the log has them all.
    copyFileSync(file, join(dir, 'alone.db'));
    const alone = new Database(join(dir, 'alone.db'));
    opened.push(alone);
    expect(
      (alone.prepare('SELECT count(*) AS n FROM chat_history WHERE session_id = ?').get(sessionId) as { n: number }).n,
    ).toBe(300);

    // The next writes start the log over from its beginning: less than it held, and the file does not grow.
    writeMessages(store, sessionId, 100);
    expect(walBytes(file)).toBe(size);
    expect(keeper.tick().outcome).toBe('writing');
    closeDatabase(db);
    expect(walBytes(file)).toBe(0); // quit still empties it
    const after = new Database(file, { readonly: true });
    opened.push(after);
    expect(
      (after.prepare('SELECT count(*) AS n FROM chat_history WHERE session_id = ?').get(sessionId) as { n: number }).n,
    ).toBe(400);
    expect(after.pragma('integrity_check', { simple: true })).toBe('ok');
    keeper.dispose();
  });

  it('after a long read ends, steady writes cut the log down to the size limit without any idle moment', () => {
    const file = join(tempDir(), 'skald.db');
    const db = openDatabase({ file });
    opened.push(db);
    expect(db.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
    const store = new SessionStore(db);
    const sessionId = store.createSession('long chat');
    const read = openReader(file);
    writeMessages(store, sessionId, 3_500);
    expect(walBytes(file)).toBeGreaterThan(GROWN_BYTES);
    read.end();
    writeMessages(store, sessionId, 1_200); // SQLite's own checkpoint completes, then a writer restarts the log
    expect(walBytes(file)).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    closeDatabase(db);
    expect(walBytes(file)).toBe(0); // quit: checkpointed and closed
  });

  it('in the running app: an open iterator holds the log while the app writes; once it ends the idle checkpoint empties it, and quit does too', async () => {
    h = await startHarness({ walIdleCheckMs: 20 });
    const file = join(h.dataDir, 'skald.db');
    const sessionId = await h.newSession();
    const reader = new Database(file, { readonly: true });
    opened.push(reader);
    const rows = reader.prepare('SELECT id FROM chat_sessions').iterate();
    expect(rows.next().done).toBe(false); // the iterator is open: its read holds a snapshot

    writeMessages(h.core.sessions.store, sessionId, 3_500);
    expect(walBytes(file)).toBeGreaterThan(GROWN_BYTES);
    // The app keeps working while the keeper's idle checkpoints are refused by the reader.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(walBytes(file)).toBeGreaterThan(GROWN_BYTES);
    expect((await h.call('chat:history', { sessionId, limit: 1 })).messages).toHaveLength(1);

    rows.return!();
    await expect.poll(() => walBytes(file), { timeout: 20_000 }).toBe(0);

    writeMessages(h.core.sessions.store, sessionId, 50);
    expect(walBytes(file)).toBeGreaterThan(0);
    const harness = h;
    h = undefined;
    await harness.close(); // quit
    expect(walBytes(file)).toBe(0);
    const after = new Database(file, { readonly: true });
    opened.push(after);
    expect(
      (after.prepare('SELECT count(*) AS n FROM chat_history WHERE session_id = ?').get(sessionId) as { n: number }).n,
    ).toBe(3_550);
    expect(after.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

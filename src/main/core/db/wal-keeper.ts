/**
 * Keeps the write-ahead log bounded (check D7 in docs/security-checks.md, docs/architecture.md "Persistence").
 *
 * SQLite's own checkpoints after each 1000 pages are PASSIVE: they copy what they can back into the database and
 * never shrink the `-wal` file. While another connection holds a read open (a person's `sqlite3` shell, a backup
 * tool, a stuck reader) they cannot restart the log either, so every commit makes the file longer; once the read
 * ends the file keeps its size. Two things bring it back:
 * - `journal_size_limit` (set in database.ts): when a writer restarts the log after a complete checkpoint, SQLite
 *   cuts the file down to the limit, so under steady writes it shrinks again by itself;
 * - this keeper: every `intervalMs` it looks at the `-wal` file, and when nothing was written since its last look
 *   (the app is idle) it runs a TRUNCATE checkpoint, which empties the file. Quit does the same (`closeDatabase`).
 *
 * The idle checkpoint never waits: it runs with `busy_timeout` 0, so a reader still open makes it give up at once
 * (SQLite reports `busy`) instead of blocking the main thread, and it is tried again at the next idle look. An
 * iterator of our own still open on the connection (better-sqlite3 then refuses any other statement) is the same: it
 * tries again later.
 */
import { statSync } from 'node:fs';
import type { Db } from './database';

export const WAL_IDLE_CHECK_MS = 30_000;
const BUSY_TIMEOUT_MS = 5_000; // the connection's own (database.ts), restored after the no-wait checkpoint

export interface WalTick {
  /** What the look did: nothing to do, writes since the last look, a checkpoint that emptied the log, or one a reader blocked. */
  outcome: 'empty' | 'writing' | 'truncated' | 'busy';
  /** The `-wal` file's size after the look, in bytes. */
  walBytes: number;
}

export interface WalKeeper {
  /** One look (the timer calls it; tests call it to step without waiting). */
  tick(): WalTick;
  dispose(): void;
}

function walStat(walFile: string): { size: number; mtimeMs: number } {
  try {
    const s = statSync(walFile);
    return { size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return { size: 0, mtimeMs: 0 };
  }
}

/**
 * A TRUNCATE checkpoint that gives up at once when a reader holds the log: true when the log was emptied.
 * better-sqlite3's own open iterator makes the pragma throw; that is "not now" as well.
 */
export function checkpointWithoutWaiting(db: Db): boolean {
  db.pragma('busy_timeout = 0');
  try {
    const [row] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    return row?.busy === 0;
  } catch {
    return false;
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

export function startWalKeeper(db: Db, dbFile: string, options: { intervalMs?: number } = {}): WalKeeper {
  const walFile = `${dbFile}-wal`;
  let last = walStat(walFile);
  const tick = (): WalTick => {
    const now = walStat(walFile);
    const changed = now.size !== last.size || now.mtimeMs !== last.mtimeMs;
    last = now;
    if (now.size === 0) return { outcome: 'empty', walBytes: 0 };
    if (changed || !db.open) return { outcome: 'writing', walBytes: now.size };
    const emptied = checkpointWithoutWaiting(db);
    last = walStat(walFile);
    return { outcome: emptied ? 'truncated' : 'busy', walBytes: last.size };
  };
  const timer = setInterval(tick, options.intervalMs ?? WAL_IDLE_CHECK_MS);
  timer.unref(); // never keeps a process alive
  return { tick, dispose: () => clearInterval(timer) };
}

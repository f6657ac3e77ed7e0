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
 *   (the app is idle) it copies the whole log into the database. A log past `journal_size_limit` (one a long read
 *   made grow) it empties (a TRUNCATE checkpoint). One within the limit it leaves at its size (a RESTART
 *   checkpoint): the next writer starts the log over from its beginning and overwrites it in place. Emptied, the file
 *   would grow again with every commit of the next turn, and on ext4 an fsync that grows a file also commits the file
 *   system's journal: a no-op edit call took 0.80 ms instead of 0.60 in a turn after an emptying (docs/architecture.md
 *   "What keeps the waited-on paths fast"). Quit empties it (`closeDatabase`).
 *
 * The idle checkpoint never waits: it runs with `busy_timeout` 0, so a reader still open makes it give up at once
 * (SQLite reports `busy`) instead of blocking the main thread, and it is tried again at the next idle look. An
 * iterator of our own still open on the connection (better-sqlite3 then refuses any other statement) is the same: it
 * tries again later. Once a look has copied the log, the next looks leave it alone until something is written.
 *
 * SQLite's own checkpoint runs inside the commit that takes the log past 1000 pages: copying the log into the
 * database and syncing it, a few milliseconds added to whatever that commit was, about one tool call in eighty
 * (docs/performance.md "What keeps the waited-on paths fast"). So the turn asks for one while nobody waits on it:
 * `checkpointSoon()`, called as a round asks the model, copies the log once it holds half as many pages not yet
 * copied as SQLite's own threshold (`wal_autocheckpoint`; none while that is off), after the request has gone out
 * (an immediate); from 80% of it, when no immediate could run since (every answer came at once), before the
 * request. SQLite's own checkpoint stays, at its 1000 pages, for writes outside a turn. The pages not yet copied are read from the
 * WAL-index header SQLite keeps in the `-shm` file (`walIndexFrames`).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import { WAL_SIZE_LIMIT_BYTES, type Db } from './database';

/** The share of SQLite's own threshold (`wal_autocheckpoint`, 1000 pages) from which a round's request copies the log. */
export const EARLY_CHECKPOINT_SHARE = 0.5;
/** From this share the request waits for the copy (about a round of calls short of SQLite's own). */
export const LATE_CHECKPOINT_SHARE = 0.8;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * The log's frames (`mxFrame`) and how many of them are copied into the database (`nBackfill`), from the WAL-index
 * header at the start of the `-shm` file (SQLite's "WAL-index format": the header's first copy holds `mxFrame` at
 * byte 16, the checkpoint information after the two 48-byte copies holds `nBackfill` at byte 96, in the machine's
 * byte order). Null when the file cannot be read.
 */
export function walIndexFrames(shmFd: number): { frames: number; copied: number } | null {
  const head = Buffer.alloc(100);
  try {
    if (readSync(shmFd, head, 0, 100, 0) < 100) return null;
  } catch {
    return null;
  }
  const read = (at: number) => (LITTLE_ENDIAN ? head.readUInt32LE(at) : head.readUInt32BE(at));
  return { frames: read(16), copied: read(96) };
}

export const WAL_IDLE_CHECK_MS = 30_000;
const BUSY_TIMEOUT_MS = 5_000; // the connection's own (database.ts), restored after the no-wait checkpoint

export interface WalTick {
  /**
   * What the look did: nothing to do (`empty`, or `copied`: the whole log is already in the database), writes since
   * the last look, a checkpoint that emptied the log (`truncated`) or copied it whole and kept the file (`restarted`),
   * or one a reader blocked.
   */
  outcome: 'empty' | 'copied' | 'writing' | 'truncated' | 'restarted' | 'busy';
  /** The `-wal` file's size after the look, in bytes. */
  walBytes: number;
}

export interface WalKeeper {
  /** One look (the timer calls it; tests call it to step without waiting). */
  tick(): WalTick;
  /** After the caller's stack: copies the log into the database when it holds enough pages not yet copied. */
  checkpointSoon(): void;
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
 * A TRUNCATE (the log emptied) or RESTART (the log copied whole, the next writer starts it over) checkpoint that gives
 * up at once when a reader holds the log: true when it was done. better-sqlite3's own open iterator makes the pragma
 * throw; that is "not now" as well.
 */
export function checkpointWithoutWaiting(db: Db, mode: 'TRUNCATE' | 'RESTART'): boolean {
  db.pragma('busy_timeout = 0');
  try {
    const [row] = db.pragma(`wal_checkpoint(${mode})`) as { busy: number }[];
    return row?.busy === 0;
  } catch {
    return false;
  } finally {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

export function startWalKeeper(db: Db, dbFile: string, options: { intervalMs?: number } = {}): WalKeeper {
  const walFile = `${dbFile}-wal`;
  let shmFd: number | null = null;
  let scheduled: NodeJS.Immediate | null = null;
  /** The log's frames and how many are copied, from the WAL index; null when there is none (yet) or it cannot be read. */
  const logFrames = (): { frames: number; copied: number } | null => {
    if (!db.open) return null;
    try {
      shmFd ??= openSync(`${dbFile}-shm`, 'r');
    } catch {
      return null;
    }
    return walIndexFrames(shmFd);
  };

  /**
   * Starts the log over now, while nobody waits on a commit. After a checkpoint that copied the whole log, the next
   * commit starts it over from its beginning, and first writes its new header and syncs it: one fsync more, which
   * would land in the next tool call's commit (docs/performance.md "A turn after the app sat idle"). Setting the
   * schema version to the value it has is the smallest write there is (the database's first page, unchanged), and it
   * takes that fsync here. Only when the log is copied whole: otherwise the write would not start it over.
   */
  const startLogOver = () => {
    const log = logFrames();
    if (!log || log.frames === 0 || log.copied !== log.frames) return;
    try {
      db.pragma(`user_version = ${db.pragma('user_version', { simple: true }) as number}`);
    } catch {
      // An iterator of ours is open: the next commit starts the log over itself.
    }
  };

  let last = walStat(walFile);
  /** Set once an idle look has copied the log and started it over; cleared by the next write. */
  let settled = false;
  const tick = (): WalTick => {
    const now = walStat(walFile);
    const changed = now.size !== last.size || now.mtimeMs !== last.mtimeMs;
    last = now;
    if (now.size === 0) return { outcome: 'empty', walBytes: 0 };
    if (changed || !db.open) {
      settled = false;
      return { outcome: 'writing', walBytes: now.size };
    }
    if (settled) return { outcome: 'copied', walBytes: now.size };
    const grown = now.size > WAL_SIZE_LIMIT_BYTES;
    const done = checkpointWithoutWaiting(db, grown ? 'TRUNCATE' : 'RESTART');
    if (done && !grown) startLogOver();
    settled = done;
    last = walStat(walFile);
    return { outcome: done ? (grown ? 'truncated' : 'restarted') : 'busy', walBytes: last.size };
  };
  const timer = setInterval(tick, options.intervalMs ?? WAL_IDLE_CHECK_MS);
  timer.unref(); // never keeps a process alive
  /** The log's pages not yet copied, as a share of SQLite's own threshold on this connection; 0 while that is off. */
  const pendingShare = (): number => {
    const log = logFrames();
    if (!log) return 0; // no WAL index (yet): nothing to copy
    // None where a caller turned SQLite's off (a count of commits in the log needs it unrestarted:
    // test/helpers/wal-commits.ts).
    const own = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    return own > 0 ? (log.frames - log.copied) / own : 0;
  };
  const copy = () => {
    try {
      db.pragma('wal_checkpoint(PASSIVE)'); // never waits for a reader or writer; copies what it can
    } catch {
      return; // An iterator of ours is open: SQLite's own checkpoint or the next round's does it.
    }
    startLogOver();
  };
  return {
    tick,
    checkpointSoon: () => {
      const share = pendingShare();
      // Near SQLite's own mark (the loop has not let an immediate run since, as when every answer comes at once):
      // now, before the request, rather than inside the next tool call's commit.
      if (share >= LATE_CHECKPOINT_SHARE) copy();
      else if (share >= EARLY_CHECKPOINT_SHARE) {
        scheduled ??= setImmediate(() => {
          scheduled = null;
          if (pendingShare() >= EARLY_CHECKPOINT_SHARE) copy();
        });
      }
    },
    dispose: () => {
      clearInterval(timer);
      if (scheduled) clearImmediate(scheduled);
      scheduled = null;
      if (shmFd !== null) closeSync(shmFd);
      shmFd = null;
    },
  };
}

/**
 * Counts the commits SQLite has written to a database's write-ahead log, read from the file itself (the SQLite
 * file format, "WAL file format"): a 32-byte header (page size at byte 8, the salts at 16 and 20), then frames of a
 * 24-byte header and one page; a frame whose bytes 4–7 are non-zero (the database size after the commit) ends a
 * commit, and under `synchronous = FULL` each commit is one fsync. Frames count while their salts match the
 * header's: later ones are left from before the log last restarted.
 *
 * A checkpoint restarts the log; the caller turns automatic checkpoints off (`PRAGMA wal_autocheckpoint = 0`) and
 * `commitsSince` refuses a log that restarted between two readings, so a count can never be silently low.
 */
import { readFileSync } from 'node:fs';

export interface WalReading {
  salt: string;
  commits: number;
  /** Frames of the current log: one page each, so the pages the commits between two readings wrote. */
  frames: number;
}

export function readWalCommits(dbFile: string): WalReading {
  let wal: Buffer;
  try {
    wal = readFileSync(`${dbFile}-wal`);
  } catch {
    return { salt: '', commits: 0, frames: 0 };
  }
  if (wal.length < 32) return { salt: '', commits: 0, frames: 0 };
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let commits = 0;
  let frames = 0;
  let committed = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    frames++;
    if (wal.readUInt32BE(at + 4) !== 0) (commits++, (committed = frames));
  }
  return { salt: `${salt1}:${salt2}`, commits, frames: committed };
}

/** Pages (log frames) the commits between two readings of the same log wrote. */
export function pagesSince(before: WalReading, after: WalReading): number {
  commitsSince(before, after);
  return after.frames - before.frames;
}

/** Commits written between two readings of the same log. */
export function commitsSince(before: WalReading, after: WalReading): number {
  if (before.salt !== '' && before.salt !== after.salt) throw new Error('the WAL restarted between the readings (a checkpoint ran): the count would be wrong');
  return after.commits - before.commits;
}

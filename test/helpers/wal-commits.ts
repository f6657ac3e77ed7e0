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
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface WalReading {
  salt: string;
  commits: number;
  /** Frames of the current log: one page each, so the pages the commits between two readings wrote. */
  frames: number;
}

const NONE: WalReading = { salt: '', commits: 0, frames: 0 };

/**
 * The log's commits now. Given an earlier reading of the same log (`since`), only the frames after it are read: a
 * caller that reads after every step of many calls would otherwise read the whole growing file each time.
 */
export function readWalCommits(dbFile: string, since?: WalReading): WalReading {
  let fd: number;
  try {
    fd = openSync(`${dbFile}-wal`, 'r');
  } catch {
    return NONE;
  }
  try {
    const size = fstatSync(fd).size;
    if (size < 32) return NONE;
    const header = Buffer.alloc(32);
    readSync(fd, header, 0, 32, 0);
    const pageSize = header.readUInt32BE(8);
    const salt1 = header.readUInt32BE(16);
    const salt2 = header.readUInt32BE(20);
    const salt = `${salt1}:${salt2}`;
    const from = since?.salt === salt ? since : { salt, commits: 0, frames: 0 };
    const frameSize = 24 + pageSize;
    const start = 32 + from.frames * frameSize;
    const rest = Buffer.alloc(Math.max(0, size - start));
    readSync(fd, rest, 0, rest.length, start);
    let { commits, frames } = from;
    let committed = frames;
    for (let at = 0; at + frameSize <= rest.length; at += frameSize) {
      if (rest.readUInt32BE(at + 8) !== salt1 || rest.readUInt32BE(at + 12) !== salt2) break;
      frames++;
      if (rest.readUInt32BE(at + 4) !== 0) commits++, (committed = frames);
    }
    return { salt, commits, frames: committed };
  } finally {
    closeSync(fd);
  }
}

/** Pages (log frames) the commits between two readings of the same log wrote. */
export function pagesSince(before: WalReading, after: WalReading): number {
  commitsSince(before, after);
  return after.frames - before.frames;
}

/** Commits written between two readings of the same log. */
export function commitsSince(before: WalReading, after: WalReading): number {
  if (before.salt !== '' && before.salt !== after.salt)
    throw new Error('the WAL restarted between the readings (a checkpoint ran): the count would be wrong');
  return after.commits - before.commits;
}

/**
 * A full disk, told apart from every other failure (docs/security-checks.md, D8). SQLite answers SQLITE_FULL when a
 * write needs a page it cannot get (a full file system, or the page limit `PRAGMA max_page_count` the tests use);
 * Node answers ENOSPC. Nothing half-written follows from it: every write is one statement or one transaction, so
 * the failed write is rolled back whole. What the app must add is a clear word to the person and a stop: a turn
 * whose step could not be saved ends (session/tool-call.ts, session-manager.ts), and a bridge call that could not
 * save says so (bridge/dispatch.ts). Once space is back, the next write simply works.
 */

/** What the person reads when a turn stopped because its next step could not be saved. */
export const DISK_FULL_TURN_TEXT =
  'The disk is full, so the app could not save the conversation and stopped this turn. Free some space on the disk, then send a message to go on.';

/** What a bridge call that could not save answers (its code is `disk_full`). */
export const DISK_FULL_CALL_TEXT =
  'The disk is full, so the app could not save this. Free some space on the disk, then try again.';

export function isDiskFull(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

/**
 * A database file SQLite cannot read (docs/security-checks.md, D9): not a database at all, or pages that do not hold
 * together (a disk that failed, a copy cut short). The app cannot mend it, and must not throw it away: the person's
 * chats are in it. What the app adds is where the file is and what to do, instead of SQLite's bare "file is not a
 * database".
 */
export function isDamagedDatabase(error: unknown): boolean {
  const code = error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}

export function damagedDatabaseText(file: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return (
    `The database ${file} is damaged (SQLite: ${why}), so Skald cannot open it. Your conversations are in that file: ` +
    'keep a copy of it, then move it out of its folder (or rename it) and start Skald again, which begins with a new, ' +
    'empty database.'
  );
}

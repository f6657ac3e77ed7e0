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
export const DISK_FULL_CALL_TEXT = 'The disk is full, so the app could not save this. Free some space on the disk, then try again.';

export function isDiskFull(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_FULL' || code === 'ENOSPC';
}

/**
 * The session scratchpad (`session_scratchpad`): the one reader and writer of that table. Notes are shared by
 * every agent of a session (and by its async tasks), keyed; the same key replaces (last writer wins), an empty
 * value deletes. The model sees them as a `<scratchpad>` block (context.ts); the person in the side panel.
 */
import { statement, type Db } from '../db/database';

export interface ScratchpadNote {
  key: string;
  value: string;
}

export const MAX_NOTE_KEY = 200;
export const MAX_NOTE_VALUE = 20_000;

/** Returns true when the note was removed (empty value). */
export function writeScratchpadNote(db: Db, sessionId: number, key: string, value: string): boolean {
  if (value === '') {
    statement(db, 'DELETE FROM session_scratchpad WHERE session_id = ? AND key = ?').run(sessionId, key);
    return true;
  }
  statement(
    db,
    'INSERT INTO session_scratchpad (session_id, key, value) VALUES (?, ?, ?) ON CONFLICT (session_id, key) DO UPDATE SET value = excluded.value',
  ).run(sessionId, key, value);
  return false;
}

export function readScratchpad(db: Db, sessionId: number): ScratchpadNote[] {
  return statement(db, 'SELECT key, value FROM session_scratchpad WHERE session_id = ? ORDER BY key').all(
    sessionId,
  ) as ScratchpadNote[];
}

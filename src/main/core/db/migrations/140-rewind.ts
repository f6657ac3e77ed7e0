/**
 * Rewind's journal (docs/rewind.md "Crash and resume"): one `rewind_runs` row per rewind the person confirmed, and one
 * `rewind_steps` row per file it restores, removes or keeps, all written in one commit before any file changes. A
 * step says what the file held when the person confirmed (`from_hash`, null = no file) and what it must hold after
 * (`target_hash`, null = removed): the file itself then says whether a step ran, so a run a crash cut short is
 * finished from here. `outcome` is set when the run ends. The partial index finds unfinished runs at start.
 */
import type { Migration } from '../migrate';

export const rewindJournal: Migration = {
  version: 140,
  name: 'rewind-journal',
  up(db) {
    db.exec(`
      CREATE TABLE rewind_runs (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        message_id INTEGER NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('files_and_chat', 'files', 'chat')),
        state TEXT NOT NULL CHECK (state IN ('running', 'done')),
        created_at INTEGER NOT NULL,
        finished_at INTEGER
      );
      CREATE INDEX rewind_runs_running ON rewind_runs(session_id) WHERE state = 'running';
      CREATE TABLE rewind_steps (
        run_id INTEGER NOT NULL REFERENCES rewind_runs(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        path TEXT NOT NULL,
        shown TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action IN ('write', 'remove', 'keep')),
        from_hash TEXT,
        target_hash TEXT,
        outcome TEXT CHECK (outcome IN ('restored', 'kept', 'failed')),
        detail TEXT,
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;
    `);
  },
};

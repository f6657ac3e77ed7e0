/**
 * A session's id is never given to another session (docs/architecture.md "Persistence"). Without AUTOINCREMENT, SQLite
 * gives a new row the largest id plus one, so deleting the newest session (a chat the person deleted, a scheduled
 * run past its retention) handed its id to the next one; and the id outlives the row where nothing deletes it by
 * cascade: the approval audit names a session by id (`tool_decisions`, `approval_requests`), and so do a session's
 * bypass grants while the app runs. The next chat would have shown an old chat's decisions under its own title, and
 * would have had its grants.
 *
 * Adding AUTOINCREMENT means rebuilding the table, and dropping `chat_sessions` inside a migration's transaction (where
 * foreign keys cannot be turned off) would delete every row that references it. So the highest id ever deleted is
 * kept instead (`id_high_water`, kept by a trigger on every delete, seeded with the ids the audit still names), and
 * the session store gives each new session an id above both it and the largest id in the table (`NEXT_SESSION_ID`).
 */
import type { Migration } from '../migrate';

export const sessionIdsNeverReused: Migration = {
  version: 118,
  name: 'session-ids-never-reused',
  up(db) {
    db.exec(`
      CREATE TABLE id_high_water (name TEXT PRIMARY KEY, last_id INTEGER NOT NULL) WITHOUT ROWID;
      INSERT INTO id_high_water (name, last_id)
        SELECT 'chat_sessions', coalesce(max(id), 0) FROM (
          SELECT max(id) AS id FROM chat_sessions
          UNION ALL SELECT max(session_id) FROM tool_decisions
          UNION ALL SELECT max(session_id) FROM approval_requests
        );
      CREATE TRIGGER chat_sessions_high_water AFTER DELETE ON chat_sessions
      BEGIN
        UPDATE id_high_water SET last_id = max(last_id, OLD.id) WHERE name = 'chat_sessions';
      END;
    `);
  },
};

/** `/compact`: summaries that stand in for the history before `up_to_message_id` (docs/architecture.md). */
import type { Migration } from '../migrate';

export const summariesSchema: Migration = {
  version: 41,
  name: 'chat-summaries',
  up(db) {
    db.exec(`
      CREATE TABLE chat_summaries (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        up_to_message_id INTEGER NOT NULL,
        summary TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX chat_summaries_session ON chat_summaries(session_id, id);
    `);
  },
};

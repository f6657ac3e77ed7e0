/** Sessions: where the model's context starts after `/clear` (the rows before it stay, nothing is lost). */
import type { Migration } from '../migrate';

export const sessionsSchema: Migration = {
  version: 40,
  name: 'sessions-context-start',
  up(db) {
    db.exec('ALTER TABLE chat_sessions ADD COLUMN context_start_id INTEGER NOT NULL DEFAULT 0');
  },
};

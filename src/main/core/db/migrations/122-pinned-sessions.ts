/**
 * Pinned chats (docs/chat-ui.md "Sessions"): a chat the person pins stays at the top of the list, under "Pinned",
 * whatever its last activity. `pinned_at` is when it was pinned (the newest pin first); null = not pinned. A nullable
 * column with no default: SQLite adds it in place. No index: the list reads every chat anyway.
 */
import type { Migration } from '../migrate';

export const pinnedSessions: Migration = {
  version: 122,
  name: 'pinned-sessions',
  up(db) {
    db.exec('ALTER TABLE chat_sessions ADD COLUMN pinned_at INTEGER');
  },
};

/**
 * Images a person put in a message (docs/chat-ui.md "Images in a message"), kept in the database with the message
 * like everything else in a chat, so a chat stays whole in one file, goes with it when it is deleted (both keys
 * cascade), and is replayed to the model each round it stays in the context. One index, on the message: every read
 * asks by a range of message ids, and deleting a message (a queued one is re-inserted when the turn takes it in)
 * checks it there.
 */
import type { Migration } from '../migrate';

export const chatImages: Migration = {
  version: 119,
  name: 'chat-images',
  up(db) {
    db.exec(`
      CREATE TABLE chat_images (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        message_id INTEGER NOT NULL REFERENCES chat_history(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        media_type TEXT NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp')),
        size INTEGER NOT NULL,
        data BLOB NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX chat_images_message ON chat_images(message_id);
    `);
  },
};

/**
 * Images a tool returns for the model to see (docs/chat-ui.md "Images a tool returns": `read_file` on an image file)
 * are kept like a person's, in `chat_images`: under the message of the model's call (so they cascade with it and are
 * read by the same range of message ids), marked with the call's id. Null for a person's image. A nullable column
 * with no default: SQLite adds it in place.
 */
import type { Migration } from '../migrate';

export const toolResultImages: Migration = {
  version: 121,
  name: 'tool-result-images',
  up(db) {
    db.exec('ALTER TABLE chat_images ADD COLUMN tool_call_id TEXT');
  },
};

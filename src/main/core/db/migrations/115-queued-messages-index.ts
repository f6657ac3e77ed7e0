/**
 * The messages a person sent while a turn ran wait with `metadata.queued = 1` until the next round boundary
 * (docs/performance.md "Long sessions"). Every round asks for them, and finding them through the session's index
 * read every message of the session (about 9 ms a round at 50,000 messages). A partial index holds only the queued
 * rows: a round's look costs an index probe, and a message that is not queued (nearly all) adds nothing to it, so
 * no commit writes more pages. The reads' WHERE term must match the index's exactly for SQLite to use it
 * (`session/history-queries.test.ts` holds the plans).
 */
import type { Migration } from '../migrate';

export const queuedMessagesIndex: Migration = {
  version: 115,
  name: 'queued-messages-index',
  up(db) {
    db.exec(
      `CREATE INDEX chat_history_queued ON chat_history (session_id, id) WHERE json_extract(metadata, '$.queued') = 1;`,
    );
  },
};

/**
 * Two indexes every tool call wrote and no read needs (docs/performance.md "What keeps the waited-on paths fast").
 * The round's first commit writes each b-tree a row touches as a whole page into the write-ahead log, and under
 * `synchronous = FULL` what that commit costs grows with its pages. Migration 111's indexes lead with the same
 * column and serve every lookup these did:
 * - `chat_history_session (session_id, id)`: the session's rows are found through `chat_history_session_stack
 *   (session_id, stack_id, id)` (a page, the model's context, the usage sums, the queued messages, the cascade when a
 *   session is deleted); the session's newest message is the largest id in that index (`SessionStore.lastMessage`);
 * - `chat_llm_tools_session (session_id, id)`: `chat_llm_tools_session_message (session_id, stack_id, message_id)`
 *   serves the session's tool rows and the cascade.
 * The round's first commit writes 10 pages instead of 12, and a message outside a round 3 instead of 4.
 * `db/indexes.test.ts` holds the index set; `session/history-queries.test.ts` the plans.
 */
import type { Migration } from '../migrate';

export const dropRedundantIndexes: Migration = {
  version: 114,
  name: 'drop-redundant-indexes',
  up(db) {
    db.exec(`
      DROP INDEX chat_history_session;
      DROP INDEX chat_llm_tools_session;
    `);
  },
};

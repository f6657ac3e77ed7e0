/**
 * Indexes for reading one page of a long session (docs/performance.md "Performance targets": every page of a
 * 50,000-message session under 20 ms, paging to the top growing linearly). A history page reads its messages by
 * session and stack, newest first before an id, then the tool rows of exactly those messages. With only
 * `(session_id, id)` on the tool rows, the second query walked every tool row of the session for each page, so
 * paging to the top grew with the square of the session's length. Both lookups now go straight to their range;
 * `session/session-store.test.ts` checks the query plans.
 */
import type { Migration } from '../migrate';

export const historyIndexes: Migration = {
  version: 111,
  name: 'history-indexes',
  up(db) {
    db.exec(`
      CREATE INDEX chat_history_session_stack ON chat_history(session_id, stack_id, id);
      CREATE INDEX chat_llm_tools_session_message ON chat_llm_tools(session_id, stack_id, message_id);
    `);
  },
};

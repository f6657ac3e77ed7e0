/**
 * The index of tool rows by status holds only the calls not yet ended (docs/architecture.md "What keeps the
 * waited-on paths fast"). Every read by status asks for those alone: the unfinished calls after a restart
 * (`queued`, `running`, `pending`), the approvals to put back in the Inbox (`pending`), a stopped background run's
 * or sub-agent's calls to end. A full index kept an entry for each of the thousands of ended calls, and a call's
 * result moved its entry from the `running` part to the `done` part: two leaf pages of the result's commit apart
 * once the `failed`, `pending`, `queued` and `rejected` entries between them fill a page. Partial, an entry is
 * inserted as the call starts and deleted as it ends, in an index of a page or two: the result's commit writes two
 * pages (the row and that one) however long the history. A query must repeat the index's condition to use it
 * (`ACTIVE_TOOL_STATUSES` in db/session-rows.ts). `db/indexes.test.ts` holds the index set and the plans.
 */
import type { Migration } from '../migrate';

export const activeToolsIndex: Migration = {
  version: 117,
  name: 'active-tools-index',
  up(db) {
    db.exec(`
      DROP INDEX chat_llm_tools_status;
      CREATE INDEX chat_llm_tools_active ON chat_llm_tools(status) WHERE status IN ('queued', 'running', 'pending');
    `);
  },
};

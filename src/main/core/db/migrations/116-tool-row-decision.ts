/**
 * A tool row points at its call's latest decision (docs/performance.md "What keeps the waited-on paths fast"):
 * `chat_llm_tools.decision_id` is the id of that row of `tool_decisions`, written in the same transaction as the
 * decision itself. The decision stays stored once, in the audit (`tool_decisions`); the tool row holds a pointer, not
 * a copy. The card's latest decision was found through `tool_decisions_call (tool_call_id)`, an index every call's
 * first commit wrote a page of; it is now one primary-key probe, and the index goes: the round's first commit writes
 * one page less. Nothing else reads the audit by call (the Security page's log reads it whole, newest first, and joins
 * the tool row by its own key).
 * An older database's rows get their pointer here, found through the old index before it is dropped.
 * `db/indexes.test.ts` holds the index set and the upgrade; `session/history-queries.test.ts` the plans.
 */
import type { Migration } from '../migrate';

export const toolRowDecision: Migration = {
  version: 116,
  name: 'tool-row-decision',
  up(db) {
    db.exec(`
      ALTER TABLE chat_llm_tools ADD COLUMN decision_id INTEGER;
      UPDATE chat_llm_tools SET decision_id = (SELECT max(d.id) FROM tool_decisions d WHERE d.tool_call_id = chat_llm_tools.tool_call_id);
      DROP INDEX tool_decisions_call;
    `);
  },
};

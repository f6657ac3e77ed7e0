/**
 * A tool row may be `queued` (docs/architecture.md "Crash and resume"): written before anything runs, like
 * before, but saying that the call has not started. A round's calls run one after another, so while the first
 * waits for an approval the others wait their turn; they used to be written `running`, and the chat showed them
 * running, and after a crash a call that never started was offered for a "re-run" as if it might have half
 * happened. A call becomes `running` when it reaches the gate.
 *
 * SQLite cannot change a CHECK constraint in place, so the table is rebuilt: the new table is made from the stored
 * definition (with every column later migrations added) with `queued` allowed, the rows are copied as they are,
 * and every index the table had is made again from its own stored definition. Nothing references the table, so
 * dropping it deletes nothing else.
 */
import type { Migration } from '../migrate';

const BEFORE = "CHECK (status IN ('running', 'pending', 'done', 'failed', 'cancelled', 'rejected'))";
const AFTER = "CHECK (status IN ('queued', 'running', 'pending', 'done', 'failed', 'cancelled', 'rejected'))";

export const toolRowQueued: Migration = {
  version: 112,
  name: 'tool-row-queued',
  up(db) {
    const table = db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'chat_llm_tools'")
      .get() as { sql: string };
    const indexes = db
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'chat_llm_tools' AND sql IS NOT NULL")
      .all() as { sql: string }[];
    if (!table.sql.includes(BEFORE))
      throw new Error('chat_llm_tools: the status CHECK is not the one this migration replaces');
    const created = table.sql
      .replace(BEFORE, AFTER)
      .replace(/^CREATE TABLE\s+("?)chat_llm_tools\1/, 'CREATE TABLE chat_llm_tools_rebuilt');
    db.exec(created);
    db.exec('INSERT INTO chat_llm_tools_rebuilt SELECT * FROM chat_llm_tools');
    db.exec('DROP TABLE chat_llm_tools');
    db.exec('ALTER TABLE chat_llm_tools_rebuilt RENAME TO chat_llm_tools');
    for (const index of indexes) db.exec(index.sql);
  },
};

/**
 * Which tools' default decisions have been seeded as rules (docs/tools.md "One tool shape"): a tool says its default
 * (`defaultDecision`), and the first start that knows the tool writes it once as a `seeded` rule of the default group
 * (approval/tool-seeds.ts), which the person can then edit or delete like any rule; this table remembers that it was
 * written, so a rule the person deleted is not written again. The tools whose rules earlier migrations seeded are
 * recorded here as seeded already.
 */
import type { Migration } from '../migrate';

const SEEDED_BY_MIGRATIONS = [
  'write_todos',
  'notify',
  'activate_tools',
  'show_file_to_user',
  'image_generate',
  'ask_user_clarification',
  'update_scratchpad',
  'execute_task',
  'execute_subtask',
  'read_agent_result',
  'list_items',
  'read_notification',
  'image_generate_providers_list',
];

export const toolDefaultSeeds: Migration = {
  version: 123,
  name: 'tool-default-seeds',
  up(db) {
    db.exec('CREATE TABLE approval_tool_seeds (tool_name TEXT PRIMARY KEY, seeded_at INTEGER NOT NULL) WITHOUT ROWID');
    const insert = db.prepare('INSERT INTO approval_tool_seeds (tool_name, seeded_at) VALUES (?, ?)');
    for (const name of SEEDED_BY_MIGRATIONS) insert.run(name, Date.now());
  },
};

/**
 * Seeds for the session's own harmless tools, insert-if-absent like the approval seeds: asking the person a
 * question (`ask_user_clarification`: the answer is the approval) and the shared scratchpad note. Rules, not code,
 * so a person can still turn either into require or deny on the Security page.
 */
import type { Migration } from '../migrate';

export const sessionToolSeeds: Migration = {
  version: 43,
  name: 'session-tool-seeds',
  up(db) {
    const insert = db.prepare(
      `INSERT INTO approval_rules (group_id, tool_pattern, action, note, priority, created_at)
       SELECT 'default', @tool, 'allow', 'seeded', 10, @now
       WHERE NOT EXISTS (SELECT 1 FROM approval_rules WHERE group_id = 'default' AND tool_pattern = @tool
                         AND path_pattern IS NULL AND command_pattern IS NULL AND agent_id IS NULL AND source IS NULL)`,
    );
    for (const tool of ['ask_user_clarification', 'update_scratchpad']) insert.run({ tool, now: Date.now() });
  },
};

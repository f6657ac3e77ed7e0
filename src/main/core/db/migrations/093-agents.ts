/**
 * Agents (docs/agents.md): a session knows the session it was started from (an async task's parent, whose
 * scratchpad it shares and where its result lands), and the sub-agent and introspection tools get seeded allow
 * rules, insert-if-absent like the other seeds. Allowing them is safe because they act only through other tools:
 * every call a sub-agent makes passes the gate under the session's permission group, and a cron job is saved
 * disabled until the person enables it. A person can still turn any of them into require or deny.
 */
import type { Migration } from '../migrate';

export const agentsSchema: Migration = {
  version: 93,
  name: 'agents',
  up(db) {
    db.exec(`
      ALTER TABLE chat_sessions ADD COLUMN parent_session_id INTEGER REFERENCES chat_sessions(id) ON DELETE SET NULL;
      CREATE INDEX chat_sessions_stack_parent_call ON chat_sessions_stack(session_id, parent_tool_call_id);
      CREATE INDEX chat_history_stack ON chat_history(stack_id, id) WHERE stack_id IS NOT NULL;
      CREATE INDEX chat_llm_tools_stack ON chat_llm_tools(stack_id) WHERE stack_id IS NOT NULL;
    `);
    const insert = db.prepare(
      `INSERT INTO approval_rules (group_id, tool_pattern, action, note, priority, created_at)
       SELECT 'default', @tool, 'allow', 'seeded', 10, @now
       WHERE NOT EXISTS (SELECT 1 FROM approval_rules WHERE group_id = 'default' AND tool_pattern = @tool
                         AND path_pattern IS NULL AND command_pattern IS NULL AND agent_id IS NULL AND source IS NULL)`,
    );
    for (const tool of ['execute_task', 'execute_subtask', 'read_agent_result', 'list_items', 'read_notification'])
      insert.run({ tool, now: Date.now() });
  },
};

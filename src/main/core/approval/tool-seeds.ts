/**
 * A tool's default decision, written once as a rule (docs/tools.md "One tool shape"): every tool the core knows whose
 * `defaultDecision` is `allow` and that was never seeded gets a `seeded` allow rule of the default group, insert-if-
 * absent like the migrations' seeds, and is recorded in `approval_tool_seeds` (migration 123) so that a rule the
 * person deletes stays deleted. A rule, not a branch of the gate: the Security page shows it, and the person can turn
 * it into require or deny. `require` needs nothing: it is the catch-all's own answer.
 */
import type { ToolTraits } from '../../../shared/tool-traits';
import type { Db } from '../db/database';

/** Seeds the defaults of tools not seeded before; returns the names seeded now. One transaction. */
export function seedToolDefaults(db: Db, tools: readonly ToolTraits[], now = Date.now()): string[] {
  const seeded = db.prepare('SELECT 1 FROM approval_tool_seeds WHERE tool_name = ?').pluck();
  const record = db.prepare('INSERT INTO approval_tool_seeds (tool_name, seeded_at) VALUES (?, ?)');
  const rule = db.prepare(
    `INSERT INTO approval_rules (group_id, tool_pattern, action, note, priority, created_at)
     SELECT 'default', @tool, 'allow', 'seeded', 10, @now
     WHERE NOT EXISTS (SELECT 1 FROM approval_rules WHERE group_id = 'default' AND tool_pattern = @tool
                       AND path_pattern IS NULL AND command_pattern IS NULL AND agent_id IS NULL AND source IS NULL)`,
  );
  const done: string[] = [];
  db.transaction(() => {
    for (const tool of tools) {
      if (tool.defaultDecision !== 'allow' || seeded.get(tool.name) !== undefined) continue;
      rule.run({ tool: tool.name, now });
      record.run(tool.name, now);
      done.push(tool.name);
    }
  })();
  return done;
}

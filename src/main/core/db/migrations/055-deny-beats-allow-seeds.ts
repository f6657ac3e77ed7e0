/**
 * Deny beats allow (docs/approval.md "Evaluation order"): among the rules that match a call the strongest action
 * wins, whatever the priority. The seeded path-less `execute_cmd require` and `restart require` rules would then
 * out-rank every allow rule for those tools (an `execute_cmd allow $ git *` could never allow anything), while the
 * catch-all `require *` already asks for both when nothing else matches. So the seeds go, but only where they are
 * still exactly as seeded: a rule the person edited is theirs and stays.
 */
import type { Migration } from '../migrate';

export const denyBeatsAllowSeeds: Migration = {
  version: 55,
  name: 'deny-beats-allow-seeds',
  up(db) {
    db.prepare(
      `DELETE FROM approval_rules
       WHERE group_id = 'default' AND tool_pattern IN ('execute_cmd', 'restart') AND action = 'require' AND priority = 10
         AND note = 'seeded' AND path_pattern IS NULL AND command_pattern IS NULL AND agent_id IS NULL AND source IS NULL`,
    ).run();
  },
};

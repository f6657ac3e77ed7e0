/**
 * `image_generate_providers_list` is allowed by a seeded rule, insert-if-absent like the other seeds (docs/tools.md).
 * It only reads the app's own configuration (which image providers are enabled, by name; never a key), like
 * `list_items`, and it is how the model learns whether it can draw at all, while `image_generate` itself is
 * already allowed: asking the person before the look-up and not before the drawing had it backwards. A person can
 * still turn it into require or deny on the Security page.
 */
import type { Migration } from '../migrate';

export const imageProvidersListSeed: Migration = {
  version: 113,
  name: 'image-providers-list-seed',
  up(db) {
    db.prepare(
      `INSERT INTO approval_rules (group_id, tool_pattern, action, note, priority, created_at)
       SELECT 'default', 'image_generate_providers_list', 'allow', 'seeded', 10, ?
       WHERE NOT EXISTS (SELECT 1 FROM approval_rules WHERE group_id = 'default' AND tool_pattern = 'image_generate_providers_list'
                         AND path_pattern IS NULL AND command_pattern IS NULL AND agent_id IS NULL AND source IS NULL)`,
    ).run(Date.now());
  },
};

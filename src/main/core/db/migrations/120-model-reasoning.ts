/**
 * A model's reasoning setting (docs/models.md "Reasoning"): how much it reasons before it answers, sent with
 * every request to it in its provider's form. `off` (every existing model) sends nothing extra, as before. A new
 * column with a default and a CHECK needs no rebuild: SQLite adds it in place and fills existing rows with `off`.
 */
import type { Migration } from '../migrate';

export const modelReasoning: Migration = {
  version: 120,
  name: 'model-reasoning',
  up(db) {
    db.exec(
      "ALTER TABLE llm_models ADD COLUMN reasoning TEXT NOT NULL DEFAULT 'off' CHECK (reasoning IN ('off', 'low', 'medium', 'high'))",
    );
  },
};

/**
 * Plugins (docs/plugins.md): one row per plugin that a person or the model has configured or toggled. `config`
 * holds the non-secret fields as JSON; secret fields live in the `secrets` table under `plugin.<name>.<field>`,
 * never here. A plugin without a row is disabled with its schema's defaults.
 */
import type { Migration } from '../migrate';

export const pluginsSchema: Migration = {
  version: 90,
  name: 'plugins',
  up(db) {
    db.exec(`
      CREATE TABLE plugins (
        name TEXT PRIMARY KEY,
        enabled INTEGER NOT NULL DEFAULT 0,
        config TEXT NOT NULL DEFAULT '{}',
        updated_at INTEGER NOT NULL
      );
    `);
  },
};

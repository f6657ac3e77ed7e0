/**
 * A provider's kind is plain text (docs/providers.md): the kinds are the descriptors of shared/providers/list.ts, and
 * a CHECK listing them made every new kind a table rebuild. A stored kind this build does not know is an error for
 * that provider alone (shared/providers/registry.ts), never a refused database.
 *
 * SQLite cannot drop a CHECK in place, so `llm_providers` is rebuilt from its stored definition without the kind's
 * CHECK. `llm_models` references it `ON DELETE CASCADE`, and with foreign keys on (they are, and a migration runs in a
 * transaction, where that cannot be switched off) dropping the old providers table would delete every model: so the
 * models table is rebuilt too, first pointing at the new providers table, and the old models table is dropped before
 * the old providers table, which then has nothing referencing it. Renaming the new providers table carries the
 * models' reference with it. Every row is copied as it is, with its id, and each index is made again from its own
 * stored definition. Nothing else references either table.
 */
import type Database from 'better-sqlite3';
import type { Migration } from '../migrate';

const KIND_CHECK = /\s+CHECK\s*\(\s*kind\s+IN\s*\([^)]*\)\s*\)/;

function stored(db: Database.Database, table: string): { table: string; indexes: string[] } {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) as
    | { sql: string }
    | undefined;
  if (!row) throw new Error(`${table}: no such table`);
  const indexes = db
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL")
    .all(table) as { sql: string }[];
  return { table: row.sql, indexes: indexes.map((i) => i.sql) };
}

/** The stored `CREATE TABLE` under another name. */
const renamed = (sql: string, from: string, to: string) =>
  sql.replace(new RegExp(`^CREATE TABLE\\s+("?)${from}\\1`), `CREATE TABLE ${to}`);

export const providerKindText: Migration = {
  version: 130,
  name: 'provider-kind-text',
  up(db) {
    const providers = stored(db, 'llm_providers');
    const models = stored(db, 'llm_models');
    if (!KIND_CHECK.test(providers.table))
      throw new Error('llm_providers: the kind CHECK this migration drops is not there');
    const modelsReference = /REFERENCES\s+("?)llm_providers\1\s*\(/;
    if (!modelsReference.test(models.table)) throw new Error('llm_models: its reference to llm_providers is not there');

    db.exec(renamed(providers.table.replace(KIND_CHECK, ''), 'llm_providers', 'llm_providers_rebuilt'));
    db.exec('INSERT INTO llm_providers_rebuilt SELECT * FROM llm_providers');
    db.exec(
      renamed(models.table, 'llm_models', 'llm_models_rebuilt').replace(
        modelsReference,
        'REFERENCES llm_providers_rebuilt(',
      ),
    );
    db.exec('INSERT INTO llm_models_rebuilt SELECT * FROM llm_models');
    db.exec('DROP TABLE llm_models');
    db.exec('DROP TABLE llm_providers');
    db.exec('ALTER TABLE llm_providers_rebuilt RENAME TO llm_providers');
    db.exec('ALTER TABLE llm_models_rebuilt RENAME TO llm_models');
    for (const sql of [...providers.indexes, ...models.indexes]) db.exec(sql);
  },
};

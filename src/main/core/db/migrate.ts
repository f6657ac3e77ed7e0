/**
 * Schema migrations keyed by `PRAGMA user_version` (D5). On a database that has some schema already, each migration
 * runs in its own transaction together with the version bump, so a crash mid-migration leaves the previous version
 * intact and the next start goes on from there. A new database (user_version 0) gets them all in ONE transaction:
 * with `synchronous=FULL` every commit is an fsync, and the thirty-odd commits were most of a first start's
 * database time (docs/performance.md "Start and memory"); a crash in it leaves the file as empty as it was, and the
 * next start runs them all again. The same statements run in the same order either way, so the schema is the same
 * (`database.test.ts` compares the two). A database written by a newer app (user_version above the newest migration
 * we know) is refused before anything is written.
 * Check ids (D5) are listed in docs/security-checks.md.
 */
import type Database from 'better-sqlite3';

export interface Migration {
  /** Strictly increasing; gaps are allowed so that each domain can own a range of numbers. */
  readonly version: number;
  readonly name: string;
  readonly up: (db: Database.Database) => void;
}

export class NewerDatabaseError extends Error {
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `This database was written by a newer Skald (schema ${found}; this build knows up to ${supported}). It was not changed.`,
    );
    this.name = 'NewerDatabaseError';
  }
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function applyMigrations(db: Database.Database, migrations: readonly Migration[]): void {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (!Number.isInteger(m.version) || m.version < 1) throw new Error(`migration ${m.name}: bad version ${m.version}`);
    if (i > 0 && sorted[i - 1]!.version === m.version) throw new Error(`two migrations share version ${m.version}`);
  });
  const latest = sorted.at(-1)?.version ?? 0;
  const current = schemaVersion(db);
  if (current > latest) throw new NewerDatabaseError(current, latest);
  const pending = sorted.filter((m) => m.version > current);
  if (pending.length === 0) return;
  const run = (migration: Migration) => {
    migration.up(db);
    db.pragma(`user_version = ${migration.version}`);
  };
  if (current === 0) db.transaction(() => pending.forEach(run))();
  else for (const migration of pending) db.transaction(() => run(migration))();
}

/**
 * Opens the app's SQLite store with the durability settings of check D1 (docs/security-checks.md): WAL, busy_timeout
 * 5000, synchronous FULL (a lost approval or status after power loss is worse than a slower commit), foreign keys on,
 * a page cache of SQLite's default size (PAGE_CACHE_KIB), then applies the migrations. Only the main process ever
 * holds a handle (D4). The log is kept bounded (D7): `journal_size_limit` here, the idle checkpoint in wal-keeper.ts,
 * the TRUNCATE checkpoint at quit below.
 *
 * `nativeBinding` lets the desktop shell load a better-sqlite3 build for Electron's ABI while tests and the web
 * shape use the Node build from node_modules (docs/architecture.md "Shapes and processes").
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyMigrations, type Migration } from './migrate';
import { damagedDatabaseText, isDamagedDatabase } from './storage-errors';
import { migrations as defaultMigrations } from './migrations/index';

export type Db = Database.Database;

/**
 * What the `-wal` file is cut down to when a writer restarts the log, and the size past which the idle checkpoint
 * empties it (wal-keeper.ts): twice what SQLite's automatic checkpoint lets it reach (1000 pages of 4 KiB), so it only
 * trims a log a long read made grow.
 */
export const WAL_SIZE_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * SQLite's page cache for the one connection, in KiB (negative: a size, not a page count): SQLite's own default.
 * better-sqlite3 builds SQLite with 16 MB instead, and reading a long session's history filled all of it: the app
 * process held 20 MB more after paging a 50,000-message session to the top, and the paging was no faster with it, as
 * the file's pages stay in the operating system's cache (docs/architecture.md "What the app's resident memory is
 * made of").
 */
export const PAGE_CACHE_KIB = 2000;

export interface OpenDatabaseOptions {
  file: string;
  nativeBinding?: string;
  migrations?: readonly Migration[];
}

export function openDatabase(options: OpenDatabaseOptions): Db {
  if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
  const db = new Database(options.file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    applyMigrations(db, options.migrations ?? defaultMigrations);
    return db;
  } catch (error) {
    db.close();
    if (isDamagedDatabase(error)) throw new Error(damagedDatabaseText(options.file, error), { cause: error });
    throw error;
  }
}

/** Brings the WAL back to zero size; called at quit (the idle one, which never waits, is wal-keeper.ts) (D7). */
export function checkpoint(db: Db): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
}

export function closeDatabase(db: Db): void {
  if (!db.open) return;
  try {
    checkpoint(db);
  } finally {
    db.close();
  }
}

const kept = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * The statement for `sql`, prepared on its first use with this database and kept for the next. For the fixed SQL of
 * reads and writes that run every round, turn or call (docs/architecture.md "The path of one tool call"): preparing
 * compiles the SQL again each time, and each prepared statement is a native object that the garbage collector must
 * visit and release, which lengthened every young collection. Never for SQL built from values: the map keeps every
 * text it sees for the life of the database.
 */
export function statement(db: Db, sql: string): Database.Statement {
  let byText = kept.get(db);
  if (!byText) kept.set(db, (byText = new Map()));
  let prepared = byText.get(sql);
  if (!prepared) byText.set(sql, (prepared = db.prepare(sql)));
  return prepared;
}

/** SQLite timestamps are stored as integer milliseconds since the epoch, UTC. */
export const nowMs = (): number => Date.now();

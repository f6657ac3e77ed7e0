import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { bundleChild } from '../../../../test/helpers/bundle-child';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { closeDatabase, openDatabase, PAGE_CACHE_KIB, statement } from './database';
import { applyMigrations, NewerDatabaseError, schemaVersion, type Migration } from './migrate';
import { migrations } from './migrations/index';
import { SessionStore } from '../session/session-store';

afterAll(cleanupTempDirs);
const root = join(__dirname, '../../../..');

describe('store', () => {
  it('reads back the durability pragmas (D1)', () => {
    const db = openDatabase({ file: join(tempDir(), 'a.db') });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    // better-sqlite3's build would keep 16 MB of pages (docs/performance.md "What the app's resident memory is made of").
    expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
    expect(schemaVersion(db)).toBe(Math.max(...migrations.map((m) => m.version)));
    db.close();
  });

  it('a damaged file is refused with where it is and what to do, and left as it was (D9)', () => {
    const garbage = join(tempDir(), 'garbage.db');
    writeFileSync(garbage, Buffer.alloc(65_536, 0x41));
    expect(() => openDatabase({ file: garbage })).toThrow(
      new RegExp(
        `^The database ${garbage} is damaged \\(SQLite: file is not a database\\), so Skald cannot open it\\. Your conversations are in that file`,
      ),
    );
    expect(readFileSync(garbage).equals(Buffer.alloc(65_536, 0x41))).toBe(true);
    // A real database cut in half: its pages no longer hold together.
    const cut = join(tempDir(), 'cut.db');
    const db = openDatabase({ file: cut });
    db.exec(
      `CREATE TABLE filler (x TEXT); INSERT INTO filler SELECT hex(randomblob(500)) FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) SELECT i FROM n)`,
    );
    closeDatabase(db);
    const whole = readFileSync(cut);
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    expect(() => openDatabase({ file: cut })).toThrow(/is damaged \(SQLite: database disk image is malformed\)/);
  });

  it('keeps a prepared statement per database and SQL text, and it reads what was written since', () => {
    const [a, b] = [
      openDatabase({ file: join(tempDir(), 'kept-a.db') }),
      openDatabase({ file: join(tempDir(), 'kept-b.db') }),
    ];
    const sql = "SELECT value_json FROM settings WHERE key = 'probe'";
    const first = statement(a, sql);
    expect(statement(a, sql)).toBe(first);
    expect(statement(b, sql)).not.toBe(first);
    expect(statement(a, `${sql} LIMIT 1`)).not.toBe(first);
    expect(first.get()).toBeUndefined();
    a.prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('probe', '1', 0)").run();
    expect(statement(a, sql).get()).toEqual({ value_json: '1' });
    a.close();
    b.close();
  });

  it('refuses a database from a newer version without writing to it (D5)', () => {
    const file = join(tempDir(), 'newer.db');
    const raw = new Database(file);
    raw.pragma('user_version = 9999');
    raw.exec('CREATE TABLE keep (x)');
    raw.close();
    expect(() => openDatabase({ file })).toThrow(NewerDatabaseError);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(9999);
    expect(check.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'settings'").get()).toEqual({ n: 0 });
    check.close();
  });

  it('a failing migration leaves the previous version and schema intact (D5)', () => {
    const file = join(tempDir(), 'm.db');
    const good: Migration = { version: 1, name: 'good', up: (db) => db.exec('CREATE TABLE t1 (x)') };
    const bad: Migration = {
      version: 2,
      name: 'bad',
      up: (db) => {
        db.exec('CREATE TABLE t2 (x)');
        throw new Error('boom');
      },
    };
    const db = new Database(file);
    applyMigrations(db, [good]);
    expect(() => applyMigrations(db, [good, bad])).toThrow('boom');
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 't2'").get()).toBeUndefined();
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 't1'").get()).toEqual({ name: 't1' });
    db.close();
  });

  it('a new database gets every migration in one transaction: a failure in the last leaves it as empty as it was (D5)', () => {
    const file = join(tempDir(), 'fresh-fail.db');
    const bad: Migration = {
      version: 9_000,
      name: 'bad',
      up: (db) => {
        db.exec('CREATE TABLE t_late (x)');
        throw new Error('boom');
      },
    };
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    expect(() => applyMigrations(db, [...migrations, bad])).toThrow('boom');
    expect(schemaVersion(db)).toBe(0);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").get()).toEqual({
      n: 0,
    });
    db.close();
    // And the next start runs them all.
    const again = openDatabase({ file });
    expect(schemaVersion(again)).toBe(Math.max(...migrations.map((m) => m.version)));
    again.close();
  });

  it('a new database (one transaction) and one migrated a version at a time end with the same schema and rows', () => {
    const sorted = [...migrations].sort((a, b) => a.version - b.version);
    const atOnce = openDatabase({ file: join(tempDir(), 'at-once.db') });
    const stepwise = new Database(join(tempDir(), 'stepwise.db'));
    stepwise.pragma('foreign_keys = ON');
    for (let i = 1; i <= sorted.length; i++) applyMigrations(stepwise, sorted.slice(0, i));
    // The seeds' times are the clock's when each ran: everything else must match.
    const withoutTimes = (row: unknown) => JSON.stringify(row, (key, value) => (/_at$/.test(key) ? 0 : value));
    const dump = (db: Database.Database) => {
      const objects = db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name').all() as {
        type: string;
        name: string;
      }[];
      const rows = objects
        .filter((o) => o.type === 'table')
        .map((o) => [o.name, db.prepare(`SELECT * FROM "${o.name}"`).all().map(withoutTimes).sort()]);
      return { objects, rows, version: schemaVersion(db) };
    };
    const expected = dump(stepwise);
    expect(expected.objects.length).toBeGreaterThan(20);
    expect(expected.rows.some(([, rows]) => (rows as unknown[]).length > 0)).toBe(true); // seeds are compared too
    expect(dump(atOnce)).toEqual(expected);
    atOnce.close();
    stepwise.close();
  });

  it('refuses two migrations with one version', () => {
    const db = new Database(':memory:');
    const m: Migration = { version: 3, name: 'a', up: () => {} };
    expect(() => applyMigrations(db, [m, { ...m, name: 'b' }])).toThrow(/share version 3/);
  });

  it('upgrades a database of every earlier version cleanly (D5)', () => {
    const sorted = [...migrations].sort((a, b) => a.version - b.version);
    for (let i = 0; i < sorted.length; i++) {
      const file = join(tempDir(), `v${i}.db`);
      const older = new Database(file);
      applyMigrations(older, sorted.slice(0, i));
      older.close();
      const db = openDatabase({ file });
      expect(schemaVersion(db)).toBe(sorted.at(-1)!.version);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    }
  });

  it('an upgraded database never gives a new session an id its audit still names (migration 118)', () => {
    const file = join(tempDir(), 'ids.db');
    const older = new Database(file);
    applyMigrations(
      older,
      migrations.filter((m) => m.version < 118),
    );
    const now = Date.now();
    older
      .prepare('INSERT INTO chat_sessions (id, title, created_at, updated_at) VALUES (3, ?, ?, ?)')
      .run('kept', now, now);
    // Session 9 was deleted before the upgrade; its decisions stay in the audit.
    older
      .prepare(
        "INSERT INTO tool_decisions (tool_call_id, session_id, action, reason_kind, args_hash, created_at) VALUES ('tc_old', 9, 'allow', 'rule', 'h', ?)",
      )
      .run(now);
    older.close();
    const db = openDatabase({ file });
    const store = new SessionStore(db);
    expect(store.createSession('new')).toBe(10);
    db.prepare('DELETE FROM chat_sessions WHERE id = 10').run();
    expect(store.createSession('newer')).toBe(11);
    db.close();
  });

  it('every acknowledged commit survives SIGKILL at random moments; integrity stays ok (D2, D3)', async () => {
    const file = join(tempDir(), 'kill.db');
    // Bundled once: each of the 25 writers then starts as plain Node, not through tsx (test/helpers/bundle-child.ts).
    const writer = await bundleChild('db-writer');
    onTestFinished(() => rmSync(writer, { force: true }));
    let acked = 0;
    for (let round = 0; round < 25; round++) {
      acked = Math.max(acked, await runWriterAndKill(writer, file, 20 + Math.random() * 120));
      const db = new Database(file, { readonly: true });
      const a = db.prepare('SELECT count(*) AS n, max(n) AS top FROM kill_a').get() as { n: number; top: number };
      const b = db.prepare('SELECT count(*) AS n FROM kill_b').get() as { n: number };
      expect(a.top).toBeGreaterThanOrEqual(acked);
      expect(a.n).toBe(a.top); // no gaps: the rows are 1..top
      expect(b.n).toBe(a.n); // both tables of each transaction, or neither
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    }
    expect(acked).toBeGreaterThan(0);
  }, 120_000);
});

function runWriterAndKill(writer: string, file: string, afterMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, file], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const before = out.includes('ready');
      out += chunk.toString();
      if (!before && out.includes('ready')) setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('exit', (code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`writer exited ${code}: ${err}`));
      const acks = [...out.matchAll(/ack (\d+)\n/g)].map((m) => Number(m[1]));
      resolve(acks.length ? Math.max(...acks) : 0);
    });
  });
}

describe('migration list', () => {
  it('is written in ascending order, so a new migration is visibly appended above the rest', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
  });
});

import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../../test/helpers/temp';
import { closeDatabase, openDatabase, type Db } from '../db/database';
import {
  createAesGcmCipher,
  createKeyFileCipher,
  SECRET_KEY_FILE,
  SecretDecryptError,
  SecretKeyFileError,
} from './secret-cipher';
import { globToRegExp, SecretKeyError, SecretStore } from './secret-store';

const opened: Db[] = [];
function setup() {
  const dir = tempDir('skald-secrets-');
  const dbPath = join(dir, 'skald.db');
  const db = openDatabase({ file: dbPath });
  opened.push(db);
  return { dir, dbPath, db, store: new SecretStore(db, createKeyFileCipher(dir)) };
}

afterEach(() => {
  for (const db of opened.splice(0)) closeDatabase(db);
  cleanupTempDirs();
});

const isPosix = process.platform !== 'win32';

describe('SecretStore', () => {
  it('keeps values encrypted at rest: neither the database nor its WAL holds the plaintext', () => {
    const { db, dbPath, store } = setup();
    const plain = 'sk-live-PLAINTEXT-VALUE-0123456789';
    store.set('github_token', plain);
    expect(store.get('github_token')).toBe(plain);
    const raw = db.prepare('SELECT value FROM secrets WHERE key = ?').get('github_token') as { value: Buffer };
    expect(Buffer.isBuffer(raw.value)).toBe(true);
    expect(raw.value.includes(Buffer.from(plain))).toBe(false);
    const bytes = [dbPath, `${dbPath}-wal`].filter(existsSync).map((f) => readFileSync(f));
    expect(bytes.length).toBeGreaterThan(0);
    for (const b of bytes) expect(b.includes(Buffer.from(plain))).toBe(false);
    closeDatabase(db);
    expect(readFileSync(dbPath).includes(Buffer.from(plain))).toBe(false);
  });

  it.runIf(isPosix)('creates the key file with mode 0600', () => {
    const { dir } = setup();
    const mode = statSync(join(dir, SECRET_KEY_FILE)).mode & 0o777;
    expect(mode).toBe(0o600);
    expect(readFileSync(join(dir, SECRET_KEY_FILE)).length).toBe(32);
  });

  it.runIf(isPosix)('tightens a key file readable by others before using it', () => {
    const dir = tempDir('skald-secrets-');
    createKeyFileCipher(dir);
    chmodSync(join(dir, SECRET_KEY_FILE), 0o644);
    const warnings: string[] = [];
    createKeyFileCipher(dir, { onWarning: (m) => warnings.push(m) });
    expect(statSync(join(dir, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(warnings).toHaveLength(1);
  });

  it('refuses a key file of the wrong size', () => {
    const dir = tempDir('skald-secrets-');
    writeFileSync(join(dir, SECRET_KEY_FILE), 'short', { mode: 0o600 });
    expect(() => createKeyFileCipher(dir)).toThrow(SecretKeyFileError);
  });

  it('reuses the same key across restarts, and another key cannot read the values', () => {
    const { dir, db, store } = setup();
    store.set('a', 'value-a');
    const again = new SecretStore(db, createKeyFileCipher(dir));
    expect(again.get('a')).toBe('value-a');
    const stranger = new SecretStore(db, createAesGcmCipher(Buffer.alloc(32, 7)));
    expect(() => stranger.get('a')).toThrow(SecretDecryptError);
    expect(stranger.allValues()).toEqual([]);
  });

  it('deletes on empty or null, lists keys by glob, answers has and allValues', () => {
    const { store } = setup();
    store.set('api.one', '1');
    store.set('api.two', '2');
    store.set('other', '3');
    expect(store.list()).toEqual(['api.one', 'api.two', 'other']);
    expect(store.list('api.*')).toEqual(['api.one', 'api.two']);
    expect(store.list('api.t?o')).toEqual(['api.two']);
    expect(store.list('a.i*')).toEqual([]); // '.' is literal, not "any character"
    expect(store.allValues().sort()).toEqual(['1', '2', '3']);
    store.set('api.one', '');
    store.set('other', null);
    expect(store.has('api.one')).toBe(false);
    expect(store.has('api.two')).toBe(true);
    expect(store.get('other')).toBeNull();
    expect(store.list()).toEqual(['api.two']);
  });

  it('refuses bad keys without writing', () => {
    const { store } = setup();
    expect(() => store.set('', 'x')).toThrow(SecretKeyError);
    expect(() => store.set('has space', 'x')).toThrow(SecretKeyError);
    expect(() => store.set('k'.repeat(201), 'x')).toThrow(SecretKeyError);
    expect(store.list()).toEqual([]);
  });

  it('globToRegExp escapes regex metacharacters', () => {
    expect(globToRegExp('a+b(*)').test('a+b(xyz)')).toBe(true);
    expect(globToRegExp('a+b(*)').test('aab(x)')).toBe(false);
  });
});

/**
 * The web shape's access token is kept per data folder, sealed like every secret: the same folder gives the same
 * token after a restart (real SQLite, real key file), `--rotate-token` replaces it, the plaintext never reaches the
 * database file, and the model's tools may not touch it (reserved key).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../../test/helpers/temp';
import { closeDatabase, openDatabase } from '../core/db/database';
import { createKeyFileCipher, isReservedSecretKey, SecretStore } from '../core/secrets/index';
import { WEB_TOKEN_SECRET, webAccessToken } from './token';

afterEach(cleanupTempDirs);

/** Opens the data folder as one run of the server would, returns the token it serves, and closes it again. */
function oneRun(dir: string, options: { rotate?: boolean } = {}): string {
  const db = openDatabase({ file: join(dir, 'skald.db') });
  try {
    return webAccessToken(new SecretStore(db, createKeyFileCipher(dir)), options);
  } finally {
    closeDatabase(db);
  }
}

describe('web access token', () => {
  it('is the same after a restart on the same data folder, and new after --rotate-token', () => {
    const dir = tempDir();
    const first = oneRun(dir);
    expect(first).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(oneRun(dir)).toBe(first);
    const rotated = oneRun(dir, { rotate: true });
    expect(rotated).not.toBe(first);
    expect(oneRun(dir)).toBe(rotated);
    expect(oneRun(tempDir()), 'another data folder has its own').not.toBe(rotated);
  });

  it('is stored sealed (not in the database file) under a key the model may not use', () => {
    const dir = tempDir();
    const token = oneRun(dir);
    expect(readFileSync(join(dir, 'skald.db')).includes(Buffer.from(token))).toBe(false);
    expect(isReservedSecretKey(WEB_TOKEN_SECRET)).toBe(true);
  });

  it('an unreadable token (its key file lost) is replaced instead of blocking the start', () => {
    const dir = tempDir();
    const db = openDatabase({ file: join(dir, 'skald.db') });
    const old = webAccessToken(new SecretStore(db, createKeyFileCipher(dir)));
    const otherKey = createKeyFileCipher(tempDir());
    const fresh = webAccessToken(new SecretStore(db, otherKey));
    expect(fresh).not.toBe(old);
    expect(webAccessToken(new SecretStore(db, otherKey))).toBe(fresh);
    closeDatabase(db);
  });
});

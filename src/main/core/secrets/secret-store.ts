/**
 * The secrets table (docs/plugins.md "Secrets"): `set(key, value|null)` (empty or null deletes),
 * `get`, `has`, `list(glob?)` (keys only) and `allValues()` for scrubbing logs and child-process environments.
 * Values are sealed by the injected `SecretCipher` before they reach SQLite; the plaintext never touches the
 * database and is never logged (errors name the key, never the value).
 *
 * Limits: keys under `RESERVED_SECRET_PREFIX` and `APP_SECRET_PREFIX` belong to the app (provider API keys, the
 * web shape's access token); tools exposed to the model
 * should refuse them (`isReservedSecretKey`). A value sealed under another key (a lost key file) cannot be read:
 * `get` throws `SecretDecryptError` and `allValues` skips it, since an unreadable value can be neither used nor leaked.
 */
import type { Db } from '../db/database';
import { nowMs } from '../db/database';
import { SecretKeyError } from '../../../shared/secret-keys';
import { SecretDecryptError, type SecretCipher } from './secret-cipher';
import type { SecretsPort } from '../tools/config/ports';

export {
  APP_SECRET_PREFIX,
  hasSecretPrefix,
  isReservedSecretKey,
  MCP_SECRET_PREFIX,
  PLUGIN_SECRET_PREFIX,
  RESERVED_SECRET_PREFIX,
  SecretKeyError,
} from '../../../shared/secret-keys';

export const MAX_SECRET_KEY_LENGTH = 200;
export const MAX_SECRET_VALUE_LENGTH = 64 * 1024;
const KEY_PATTERN = /^[A-Za-z0-9_.:/-]+$/;

export function assertSecretKey(key: string): void {
  if (key.length === 0 || key.length > MAX_SECRET_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    throw new SecretKeyError(`secret keys are 1-${MAX_SECRET_KEY_LENGTH} characters of A-Z a-z 0-9 _ . : / -`);
  }
}

/** `*` = any run of characters, `?` = one character; everything else is literal. Anchored at both ends. */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (const ch of pattern) {
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else source += ch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

export class SecretStore implements SecretsPort {
  private readonly statements;

  constructor(
    db: Db,
    private readonly cipher: SecretCipher,
  ) {
    this.statements = {
      upsert: db.prepare(
        `INSERT INTO secrets (key, value, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare('DELETE FROM secrets WHERE key = ?'),
      get: db.prepare('SELECT value FROM secrets WHERE key = ?'),
      keys: db.prepare('SELECT key FROM secrets ORDER BY key'),
      values: db.prepare('SELECT value FROM secrets ORDER BY key'),
    };
  }

  /** Stores (or replaces) a value; `null` or `''` deletes the key. Returns whether a value is now stored. */
  set(key: string, value: string | null): boolean {
    assertSecretKey(key);
    if (value === null || value === '') {
      this.statements.remove.run(key);
      return false;
    }
    if (value.length > MAX_SECRET_VALUE_LENGTH)
      throw new SecretKeyError(`the value of ${key} is longer than ${MAX_SECRET_VALUE_LENGTH} characters`);
    const now = nowMs();
    this.statements.upsert.run(key, this.cipher.encrypt(value), now, now);
    return true;
  }

  delete(key: string): void {
    this.statements.remove.run(key);
  }

  get(key: string): string | null {
    const row = this.statements.get.get(key) as { value: Buffer } | undefined;
    return row ? this.cipher.decrypt(row.value) : null;
  }

  has(key: string): boolean {
    return this.statements.get.get(key) !== undefined;
  }

  list(pattern?: string): string[] {
    const keys = (this.statements.keys.all() as { key: string }[]).map((r) => r.key);
    if (!pattern) return keys;
    const re = globToRegExp(pattern);
    return keys.filter((k) => re.test(k));
  }

  /** Every readable value, for scrubbing; never log or return these anywhere else. */
  allValues(): string[] {
    const out: string[] = [];
    for (const row of this.statements.values.all() as { value: Buffer }[]) {
      try {
        out.push(this.cipher.decrypt(row.value));
      } catch (error) {
        if (!(error instanceof SecretDecryptError)) throw error;
      }
    }
    return out;
  }
}

/**
 * How secret values are sealed at rest (docs/plugins.md "Secrets"). The store only sees a `SecretCipher`; the desktop
 * shell passes one backed by Electron's safeStorage, and the web shape (and tests) use `createKeyFileCipher`:
 * AES-256-GCM with a random 32-byte key kept in `<dataDir>/secret.key`, readable only by the user (mode 0600).
 *
 * Limits: the key file protects against someone reading the database alone (a copied `skald.db`, a backup), not
 * against code running as the same user, which can read the key file too. On Windows file modes mean little, so the
 * mode check is skipped there. A key file readable by group/others is tightened to 0600 when we own it (the
 * `onWarning` callback is told), and refused otherwise.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SecretCipher {
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

export const SECRET_KEY_FILE = 'secret.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** First byte of every sealed value, so a future format can be told apart. */
const FORMAT_V1 = 0x01;

export class SecretKeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyFileError';
  }
}

export class SecretDecryptError extends Error {
  constructor(message = 'A secret could not be decrypted: it was sealed with another key, or the data is damaged.') {
    super(message);
    this.name = 'SecretDecryptError';
  }
}

/** AES-256-GCM over a raw 32-byte key: `0x01 | iv(12) | tag(16) | ciphertext`. */
export function createAesGcmCipher(key: Buffer): SecretCipher {
  if (key.length !== KEY_BYTES)
    throw new SecretKeyFileError(`a secret key must be ${KEY_BYTES} bytes, got ${key.length}`);
  return {
    encrypt(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from([FORMAT_V1]), iv, cipher.getAuthTag(), body]);
    },
    decrypt(data) {
      if (data.length < 1 + IV_BYTES + TAG_BYTES || data[0] !== FORMAT_V1) throw new SecretDecryptError();
      const iv = data.subarray(1, 1 + IV_BYTES);
      const tag = data.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv);
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
          'utf8',
        );
      } catch {
        throw new SecretDecryptError();
      }
    },
  };
}

export interface KeyFileOptions {
  /** Told when a too-open key file was tightened to 0600. Never receives key material. */
  onWarning?: (message: string) => void;
  /** For tests: pretend to be another platform. */
  platform?: NodeJS.Platform;
}

function checkMode(file: string, options: KeyFileOptions): void {
  if ((options.platform ?? process.platform) === 'win32') return;
  const stat = statSync(file);
  if (!stat.isFile()) throw new SecretKeyFileError(`${file} is not a regular file`);
  if ((stat.mode & 0o077) === 0) return;
  const mine = typeof process.getuid === 'function' && stat.uid === process.getuid();
  if (!mine) {
    throw new SecretKeyFileError(
      `${file} is readable by other users (mode ${(stat.mode & 0o777).toString(8)}) and is not owned by this user; refusing to use it. ` +
        'Fix its owner and run `chmod 600` on it.',
    );
  }
  chmodSync(file, 0o600);
  if ((statSync(file).mode & 0o077) !== 0)
    throw new SecretKeyFileError(`${file} is readable by other users and could not be made private`);
  options.onWarning?.(`${file} was readable by other users; its mode was set to 0600`);
}

/** Loads `<dataDir>/secret.key`, creating it (0600, random) on first use. */
export function loadOrCreateKey(dataDir: string, options: KeyFileOptions = {}): Buffer {
  const file = join(dataDir, SECRET_KEY_FILE);
  try {
    // `wx`: never overwrite a key another process just made; the mode applies at creation, before any byte lands.
    writeFileSync(file, randomBytes(KEY_BYTES), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  checkMode(file, options);
  const key = readFileSync(file);
  if (key.length !== KEY_BYTES) {
    throw new SecretKeyFileError(
      `${file} holds ${key.length} bytes, not ${KEY_BYTES}: it is not a Skald secret key (stored secrets cannot be read without the original).`,
    );
  }
  return key;
}

/** The web shape's cipher: AES-256-GCM under the user-only key file in the data folder. */
export function createKeyFileCipher(dataDir: string, options: KeyFileOptions = {}): SecretCipher {
  return createAesGcmCipher(loadOrCreateKey(dataDir, options));
}

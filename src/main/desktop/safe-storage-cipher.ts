/**
 * Secrets at rest on desktop (docs/plugins.md "Secrets"): Electron's safeStorage (Keychain, DPAPI, libsecret). Where
 * the OS offers no encryption (a Linux session without a keyring), the core's user-only key file is used instead,
 * rather than safeStorage's plaintext fallback.
 */
import type { SafeStorage } from 'electron';
import type { SecretCipher } from '../core/secrets/index';

export function safeStorageCipher(safeStorage: SafeStorage): SecretCipher | undefined {
  if (!safeStorage.isEncryptionAvailable()) return undefined;
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') return undefined;
  return {
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(data),
  };
}

/**
 * The web shape's access token, kept per data folder (docs/architecture.md, "The web shape"). It is stored like a
 * secret (sealed in the secrets table, never logged), so a restart of the server on the same data folder serves the
 * same token and an open tab — which holds it in an HttpOnly cookie — reconnects by itself. `--rotate-token` makes
 * a new one: every tab opened with the old token is locked out and needs the newly printed URL.
 *
 * A token that cannot be read (the key that sealed it is gone) is replaced rather than blocking the start.
 */
import { randomBytes } from 'node:crypto';
import type { SecretStore } from '../core/secrets/index';

export const WEB_TOKEN_SECRET = 'app.web.access_token';

export function webAccessToken(secrets: Pick<SecretStore, 'get' | 'set'>, options: { rotate?: boolean } = {}): string {
  if (!options.rotate) {
    try {
      const kept = secrets.get(WEB_TOKEN_SECRET);
      if (kept) return kept;
    } catch {
      // unreadable (a lost key file): make a new one below
    }
  }
  const token = randomBytes(24).toString('base64url');
  secrets.set(WEB_TOKEN_SECRET, token);
  return token;
}

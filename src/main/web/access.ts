/**
 * The web shape's gate for every request and socket (docs/architecture.md "Shapes and processes"): the token (query,
 * header or the cookie set on the first tokened page load) must match, `Host` must be our loopback address and port (no
 * DNS rebinding), and a present `Origin` must be our own (no cross-site requests). Comparison is constant-time.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'skald_token';

export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

export function tokenMatches(given: string | undefined | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return rest.join('=');
  }
  return undefined;
}

export type AccessVerdict = { ok: true; viaQuery: boolean } | { ok: false; status: number; reason: string };

export function checkAccess(req: IncomingMessage, port: number, token: string): AccessVerdict {
  const host = req.headers.host ?? '';
  if (!allowedHosts(port).has(host)) return { ok: false, status: 421, reason: 'bad host' };
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts(port).has(origin.replace(/^http:\/\//, ''))) {
    return { ok: false, status: 403, reason: 'bad origin' };
  }
  if (origin !== undefined && !origin.startsWith('http://')) return { ok: false, status: 403, reason: 'bad origin' };
  const url = new URL(req.url ?? '/', `http://${host}`);
  const fromQuery = url.searchParams.get('token');
  if (tokenMatches(fromQuery, token)) return { ok: true, viaQuery: true };
  const header = req.headers['x-skald-token'];
  if (tokenMatches(typeof header === 'string' ? header : undefined, token)) return { ok: true, viaQuery: false };
  if (tokenMatches(cookieToken(req.headers.cookie), token)) return { ok: true, viaQuery: false };
  return { ok: false, status: 401, reason: 'missing or wrong token' };
}

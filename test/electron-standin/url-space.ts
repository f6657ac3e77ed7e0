/**
 * Chromium knows no `app:` or `skald-preview:` scheme: Electron registers them inside its own build of Chromium,
 * which plain Chromium has no switch for. So the desktop stand-in (docs/desktop.md "The desktop shape run end to
 * end") maps each privileged scheme onto an https origin that never reaches the network, and maps back at every
 * crossing: `<scheme>://<host>/<path>` ⇄ `https://<host>.<scheme>.electron-standin.invalid/<path>`.
 * - page → main: request URLs handed to the protocol handlers, sender frame URLs, navigation targets, IPC arguments;
 * - main → page: navigation (`loadURL`), IPC results and events, and the CSP headers' sources (`app:` becomes
 *   `https://*.app.electron-standin.invalid`), so the policy means what it means under Electron.
 * Every page origin stays distinct and secure (https), as `standard` + `secure` schemes are in Electron; the
 * handlers and the core see only the real URLs.
 */
export const STANDIN_DOMAIN = 'electron-standin.invalid';

export class UrlSpace {
  constructor(private readonly schemes: readonly string[]) {}

  /** `app://skald/index.html` → `https://skald.app.electron-standin.invalid/index.html`; other URLs unchanged. */
  toPage(url: string): string {
    const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)(.*)$/i.exec(url);
    if (!m || !this.schemes.includes(m[1]!.toLowerCase())) return url;
    return `https://${m[2]!.toLowerCase()}.${m[1]!.toLowerCase()}.${STANDIN_DOMAIN}${m[3] || '/'}`;
  }

  /** The reverse; null when the URL is not one of ours. */
  fromPage(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const suffix = `.${STANDIN_DOMAIN}`;
    if (parsed.protocol !== 'https:' || !parsed.hostname.endsWith(suffix)) return null;
    const labels = parsed.hostname.slice(0, -suffix.length).split('.');
    const scheme = labels.pop()!;
    if (!labels.length || !this.schemes.includes(scheme)) return null;
    return `${scheme}://${labels.join('.')}${parsed.pathname}${parsed.search}${parsed.hash}`;
  }

  /** The scheme of one of our page URLs (`app`), or null. */
  schemeOf(pageUrl: string): string | null {
    const real = this.fromPage(pageUrl);
    return real ? real.slice(0, real.indexOf(':')) : null;
  }

  /** A CSP header with every source naming one of our schemes mapped onto its page origin. */
  mapCsp(header: string): string {
    return header
      .split(';')
      .map((directive) =>
        directive
          .trim()
          .split(/\s+/)
          .map((token) => {
            const scheme = /^([a-z][a-z0-9+.-]*):$/i.exec(token)?.[1]?.toLowerCase();
            if (scheme && this.schemes.includes(scheme)) return `https://*.${scheme}.${STANDIN_DOMAIN}`;
            return this.toPage(token);
          })
          .join(' '),
      )
      .join('; ');
  }

  /** Every string in a value that is one of our real URLs, mapped for the page (IPC results and events). */
  mapValueToPage<T>(value: T): T {
    return mapStrings(value, (s) => (s.includes('://') ? this.toPage(s) : s));
  }

  /** Every string that is one of our page URLs, mapped back (IPC arguments). */
  mapValueFromPage<T>(value: T): T {
    return mapStrings(value, (s) => (s.includes(STANDIN_DOMAIN) ? (this.fromPage(s) ?? s) : s));
  }
}

function mapStrings<T>(value: T, map: (s: string) => string): T {
  if (typeof value === 'string') return map(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)])) as T;
  return value;
}

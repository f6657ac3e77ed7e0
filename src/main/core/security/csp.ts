/**
 * The Content-Security-Policy of the app's own pages, for both the `app://` protocol and the web shape (E4).
 * No `unsafe-inline`/`unsafe-eval` for scripts; styles allow inline because Monaco injects <style> elements.
 * Check ids (E4) are listed in docs/security-checks.md.
 */
export interface CspOptions {
  /** Origin allowed in frames (the viewer's preview scheme); none when absent. */
  previewOrigin?: string;
  /** Extra `connect-src` sources (the web shape's WebSocket origin). */
  connect?: string[];
}

export function buildCsp(options: CspOptions = {}): string {
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...(options.connect ?? [])],
    'worker-src': ["'self'", 'blob:'],
    'frame-src': options.previewOrigin ? [options.previewOrigin] : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** Parses a CSP header into directive → sources, for tests and for checks at startup. */
export function parseCsp(header: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of header.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), values);
  }
  return out;
}

import { describe, expect, it } from 'vitest';
import { buildCsp, parseCsp } from './csp';

describe('CSP (E4)', () => {
  it('allows scripts only from self, never inline or eval, and locks the rest down', () => {
    const csp = parseCsp(buildCsp());
    expect(csp.get('script-src')).toEqual(["'self'"]);
    for (const values of csp.values()) {
      if (values === csp.get('style-src')) continue;
      expect(values).not.toContain("'unsafe-inline'");
      expect(values).not.toContain("'unsafe-eval'");
    }
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('frame-src')).toEqual(["'none'"]);
  });

  it('frames only the preview origin when one is given', () => {
    expect(parseCsp(buildCsp({ previewOrigin: 'skald-preview:' })).get('frame-src')).toEqual(['skald-preview:']);
  });
});

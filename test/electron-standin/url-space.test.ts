/** The stand-in's URL mapping (url-space.ts): both ways, only our schemes, CSP sources and IPC values. */
import { describe, expect, it } from 'vitest';
import { buildCsp, parseCsp } from '../../src/main/core/security/csp';
import { UrlSpace } from './url-space';

const space = new UrlSpace(['app', 'skald-preview']);

describe('UrlSpace', () => {
  it('maps our schemes onto https origins of their own and back, query and hash kept', () => {
    expect(space.toPage('app://skald/index.html')).toBe('https://skald.app.electron-standin.invalid/index.html');
    expect(space.toPage('skald-preview://v/tok/a.html?x=1#y')).toBe(
      'https://v.skald-preview.electron-standin.invalid/tok/a.html?x=1#y',
    );
    expect(space.fromPage('https://skald.app.electron-standin.invalid/viewer/file/h?x=1')).toBe(
      'app://skald/viewer/file/h?x=1',
    );
    expect(space.fromPage(space.toPage('skald-preview://v/tok/a.html'))).toBe('skald-preview://v/tok/a.html');
  });

  it('leaves every other URL alone', () => {
    expect(space.toPage('https://example.com/')).toBe('https://example.com/');
    expect(space.toPage('file:///etc/passwd')).toBe('file:///etc/passwd');
    expect(space.toPage('other://x/')).toBe('other://x/');
    expect(space.fromPage('https://example.com/')).toBeNull();
    expect(space.fromPage('https://skald.other.electron-standin.invalid/')).toBeNull();
    expect(space.fromPage('not a url')).toBeNull();
  });

  it('maps the CSP sources that name our schemes, and nothing else', () => {
    const csp = parseCsp(space.mapCsp(buildCsp({ previewOrigin: 'skald-preview:' })));
    expect(csp.get('frame-src')).toEqual(['https://*.skald-preview.electron-standin.invalid']);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(space.mapCsp('img-src data: blob: skald-preview://v/tok/')).toBe(
      'img-src data: blob: https://v.skald-preview.electron-standin.invalid/tok/',
    );
  });

  it('maps URL strings inside IPC values, both ways', () => {
    const value = {
      url: 'skald-preview://v/t/a.html',
      list: ['app://skald/x', 'plain text', 3],
      nested: { keep: 'see app://skald/ in text' },
    };
    const mapped = space.mapValueToPage(value);
    expect(mapped).toEqual({
      url: 'https://v.skald-preview.electron-standin.invalid/t/a.html',
      list: ['https://skald.app.electron-standin.invalid/x', 'plain text', 3],
      nested: { keep: 'see app://skald/ in text' },
    });
    expect(space.mapValueFromPage(mapped)).toEqual(value);
  });
});

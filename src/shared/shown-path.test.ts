/** shownPath quotes exactly the names a line-by-line reader could misread, as JSON strings readQuotedPath reads back. */
import { describe, expect, it } from 'vitest';
import { readQuotedPath, shownPath } from './shown-path';

describe('shownPath', () => {
  it('leaves ordinary names alone, quotes names with controls, line separators or a leading quote', () => {
    for (const plain of ['a.ts', 'src/dir with spaces/ü.md', 'a"b.txt', 'back\\slash', 'emoji 😀.txt'])
      expect(shownPath(plain)).toBe(plain);
    expect(shownPath('a\nb')).toBe('"a\\nb"');
    expect(shownPath('a\rb\tc\u0000')).toBe('"a\\rb\\tc\\u0000"');
    expect(shownPath('del\u007f c1\u0085 ls\u2028 ps\u2029')).toBe('"del\\u007f c1\\u0085 ls\\u2028 ps\\u2029"');
    expect(shownPath('"quoted".txt')).toBe('"\\"quoted\\".txt"');
  });

  it('every quoted name reads back to itself, with what follows it on the line', () => {
    for (const name of ['a\nb', 'x\\"y\nz', '"q"', 'd\u2028/e\u0085', 'tab\t']) {
      const line = `${shownPath(name)}:12:text "with" quotes`;
      expect(readQuotedPath(line)).toEqual({ path: name, length: shownPath(name).length });
    }
    expect(readQuotedPath('plain.txt:1:x')).toBeNull();
    expect(readQuotedPath('"not closed:1:x')).toBeNull();
    expect(readQuotedPath('"bad \\q escape":1:x')).toBeNull();
  });
});

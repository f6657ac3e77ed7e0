/**
 * Searching raw bytes instead of decoded text (grep-pattern.ts, grep-byte-lines.ts `byteLines`) gives exactly the
 * decoded search's lines, texts and context, for every pattern it is used for, on byte soups made of what breaks such
 * things: characters of two to four bytes, U+2028 (a line terminator to JavaScript, not to a line search), U+00A0 and
 * U+FEFF (whitespace to `\s`), invalid and truncated UTF-8, CR before LF, lines longer than shown. And a required run
 * of characters is in every line that matches.
 */
import { describe, expect, it } from 'vitest';
import { bytesAlike, requiredLiteral } from './grep-pattern';
import { byteLines } from './grep-byte-lines';
import { byteLineSource, clipLine, compileMatcher, hunks, lineIndex, matchingLines } from './search-engine';

const BITS = [
  'needle',
  'NEEDLE',
  'Need',
  'le',
  'x',
  'xx',
  '_',
  '1',
  '(',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  'é',
  'É',
  '😀',
  '中',
  '\u2028',
  '\u00a0',
  '\ufeff',
  'ſ',
  'K',
];
const RAW = [Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xe2, 0x82]), Buffer.from([0x80, 0x41])];

/** Patterns byteLines runs over the bytes, each case-sensitive and not. */
const ALIKE = [
  'needle',
  'ne+dle',
  'n[a-e]+dle',
  '\\bneedle\\b',
  '^needle',
  'needle$',
  '^$',
  'need(le|ed)',
  '(?<=x)need',
  'need(?!le)',
  '(x)\\1',
  'x{2,}',
  'e\\d',
  '[a-z_]+\\(',
  'le\\w*',
  'x*',
  '\\Bee',
  '[\\w(]+$',
  'need[\\n ]*le',
  'needle\\r?$',
  '^ne+dle\\b',
];

function soup(next: (n: number) => number): Buffer {
  const parts: Buffer[] = [];
  for (let k = next(80); k > 0; k--)
    parts.push(next(9) === 0 ? RAW[next(RAW.length)]! : Buffer.from(BITS[next(BITS.length)]!));
  if (next(13) === 0) parts.push(Buffer.from(`${'ü'.repeat(700)}needle${'中'.repeat(900)}`)); // longer than shown
  return Buffer.concat(parts);
}

describe('searching the bytes', () => {
  it('takes only patterns whose parts match ASCII alone, and finds their lines exactly as the decoded search', () => {
    for (const p of ALIKE) expect(bytesAlike(p), p).toBe(true);
    for (const p of ['n.e', '[^x]', '\\s', '\\S', '\\D', '\\W', 'é', '\\xe9', '\\u00e9', '\\p{L}', '[\\s]', '\\cJ'])
      expect(bytesAlike(p), p).toBe(false);
    let seed = 11;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 150; round++) {
      const bytes = soup(next);
      const text = bytes.toString('utf8');
      for (const pattern of ALIKE)
        for (const caseInsensitive of [false, true]) {
          const matcher = compileMatcher(pattern, caseInsensitive);
          const context = round % 3;
          const max = round % 5 === 0 ? 1 : Number.POSITIVE_INFINITY;
          const found = byteLines(matcher, bytes, max, context);
          const texts: string[] = [];
          const expected = matchingLines(matcher, text, max, texts);
          const label = `/${pattern}/${caseInsensitive ? 'i' : ''} round ${round}: ${JSON.stringify(text.slice(0, 60))}`;
          expect(found, label).not.toBeNull();
          expect(found!.matches, label).toEqual(expected);
          expect(found!.texts.map(clipLine), label).toEqual(texts.map(clipLine));
          if (context === 0) continue;
          const shown = (lines: { at(no: number): string | undefined }) =>
            hunks(lines, expected, context).map((h) => h.lines.map((l) => `${l.no}:${l.isMatch}:${clipLine(l.text)}`));
          expect(shown({ at: (no) => found!.around!.get(no) }), label).toEqual(shown(lineIndex(text)));
        }
    }
  });

  it('tries a pattern with a required run only on the lines that hold it, never over the whole file', () => {
    const bytes = Buffer.from('a NEEDLE\r\nneedle b\nneed\nle\nx needles\n');
    for (const [pattern, caseInsensitive, lines] of [
      ['ne+dle\\b', true, [0, 1]],
      ['ne+dle\\b', false, [1]],
      ['need[\\n ]*le', false, [1, 4]],
      ['^needle', true, [1]],
    ] as const) {
      const matcher = compileMatcher(pattern, caseInsensitive);
      expect(matcher.required, pattern).not.toBeNull();
      const noScan = { ...matcher, scan: null as unknown as RegExp }; // the whole-text pass would throw
      expect(byteLines(noScan, bytes, 10, 0)?.matches, pattern).toEqual(lines);
      expect(matchingLines(matcher, bytes.toString('utf8')), pattern).toEqual(lines);
    }
    // Look-behind at a line's start sees the previous line in the whole text, not in the line alone: such a pattern is
    // still run over the whole text, as the decoded search runs it.
    const lookBehind = compileMatcher('(?<!\\n)needle', false);
    expect(lookBehind.looksAround).toBe(true);
    expect(byteLines(lookBehind, bytes, 10, 0)?.matches).toEqual(matchingLines(lookBehind, bytes.toString('utf8')));
    expect(byteLines({ ...lookBehind, looksAround: false }, bytes, 10, 0)?.matches).not.toEqual(
      matchingLines(lookBehind, bytes.toString('utf8')),
    );
  });

  it('reads any line of the bytes as the line index of the decoded text does, in any order', () => {
    let seed = 5;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const edges = ['', '\n', 'a', 'a\n', '\r\n', 'a\r', '\n\n', 'é\r\n中'].map((t) => Buffer.from(t));
    for (let round = 0; round < 300; round++) {
      const bytes = round < edges.length ? edges[round]! : soup(next);
      const decoded = lineIndex(bytes.toString('utf8'));
      const lines = byteLineSource(bytes);
      const asked = Array.from({ length: 12 }, () => next(40) - 2);
      for (const no of asked)
        expect(lines.at(no), `line ${no} of ${JSON.stringify(bytes.toString())}`).toBe(decoded.at(no));
    }
  });

  it('looks first for a run of characters every match holds, and for none where a match may lack it', () => {
    const cases: [string, string | null][] = [
      ['needle', 'needle'],
      ['runtime[A-Za-z0-9_]*\\(', 'runtime'],
      ['abc?def', 'def'],
      ['foo\\.bar', 'foo.bar'],
      ['x(abc)yyy', 'yyy'],
      ['[abc]defg', 'defg'],
      ['abcd+e', 'abcd'],
      ['ab+cd', null],
      ['abc|def', null],
      ['\\x41bcd', null],
      ['\\k<n>abcd', null],
      ['abc{0,2}', null],
      ['^import \\w+', 'import '],
      ['(?=abc)abcd', 'abcd'],
    ];
    for (const [pattern, run] of cases) expect(requiredLiteral(pattern), pattern).toBe(run);
    // Whatever the pattern, a line it matches holds the run.
    let seed = 3;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const letters = ['a', 'b', 'c', 'd', '.', '(', ' '];
    const patterns = ['abc?d', 'ab+cd', 'a.c(d)?bd', 'x?abcd*', 'ab\\.c\\(d', '[ab]cda{0}bc', '(ab)+cdab'];
    for (const pattern of patterns) {
      const run = requiredLiteral(pattern, 2);
      const re = new RegExp(pattern);
      for (let k = 0; k < 3000; k++) {
        const line = Array.from({ length: next(12) }, () => letters[next(letters.length)]).join('');
        if (run !== null && re.test(line)) expect(line, pattern).toContain(run);
      }
    }
  });
});

/**
 * The case-insensitive literal search on bytes (grep-folded.ts) finds exactly the places the regular expression it
 * stands in for finds (the pattern with `gi`, over the bytes read as latin1, as the engine ran it before), and the
 * engine's lines with it are those of the decoded text's search: mixed case, characters above ASCII next to a match
 * (and `K` U+212A, `ſ` U+017F, which `i` without `u` does not fold to ASCII), bytes one bit from a letter (`@` and
 * `` ` ``, `[` and `{`), matches across the 16-byte blocks it compares, at the very end, and a file shorter than the
 * last one searched (whose bytes still lie in the memory past the new end).
 */
import { describe, expect, it } from 'vitest';
import { FOLDED_WINDOW, foldedFinder } from './grep-folded';
import { byteLines } from './grep-byte-lines';
import { clipLine, compileMatcher, matchingLines, mayMatch } from './search-engine';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place of `literal` in `bytes`, as the folded search gives them and as the regular expression does. */
function places(literal: string, bytes: Buffer): { folded: number[]; regex: number[] } {
  const find = foldedFinder(Buffer.from(literal, 'latin1'), bytes);
  expect(find, 'WebAssembly runs here').not.toBeNull();
  const folded: number[] = [];
  for (let at = find!(0); at !== -1; at = find!(at + 1)) folded.push(at);
  const re = new RegExp(escape(literal), 'gi');
  const text = bytes.toString('latin1');
  const regex: number[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    regex.push(m.index);
    re.lastIndex = m.index + 1; // overlapping places too
  }
  return { folded, regex };
}

const LITERALS = ['todo', 't', 'To', '@x', 'a[', '`{', 'k', 's', 'dodododo', 'ab1_ab1_ab1_ab1_ab1_x', 'Q'];
const BITS = ['todo', 'TODO', 'ToDo', 'tOd', 'do', 'x', 'X', '@', '`', '[', '{', 'A', 'a', 'k', 'K', 's', 'S'];
const WIDE = ['é', 'É', 'ſ', 'K', '中', '\n', '\r\n', ' ', 'ab1_'];
const RAW = [
  Buffer.from([0xff]),
  Buffer.from([0xc3]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xd4]),
  Buffer.from([0xcb]),
];

function soup(next: (n: number) => number): Buffer {
  const parts: Buffer[] = [];
  for (let k = next(90); k > 0; k--) {
    const kind = next(10);
    if (kind === 0) parts.push(RAW[next(RAW.length)]!);
    else if (kind < 4) parts.push(Buffer.from(WIDE[next(WIDE.length)]!));
    else parts.push(Buffer.from(BITS[next(BITS.length)]!));
  }
  return Buffer.concat(parts);
}

describe('case-insensitive literal on bytes', () => {
  it('finds every place the regular expression finds, and no other', () => {
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 2000; round++) {
      const bytes = soup(next);
      for (const literal of LITERALS) {
        const { folded, regex } = places(literal, bytes);
        expect(folded, `${literal} in ${JSON.stringify(bytes.toString('latin1'))}`).toEqual(regex);
      }
    }
  });

  it('finds a match at every offset of a block, at the very end, and in a file shorter than a block', () => {
    for (let size = 0; size < 70; size++)
      for (let at = 0; at + 4 <= size; at++) {
        const bytes = Buffer.alloc(size, 0xe9); // é in latin1, a lone invalid byte in UTF-8
        bytes.write('tOdO', at, 'latin1');
        expect(places('todo', bytes), `${at} of ${size}`).toEqual({ folded: [at], regex: [at] });
      }
  });

  it('finds a match across the windows a big file is copied in, and every match near their edges', () => {
    const literal = 'ab1_ab1_ab1_ab1_ab1_x'; // longer than a SIMD block
    // A window without a match is followed by one that starts where a match running past its end could start.
    const second = 2 * FOLDED_WINDOW - literal.length + 1;
    const near = (edge: number) => [
      edge - literal.length - 1,
      edge - literal.length,
      edge - 3,
      edge - 1,
      edge,
      edge + 5,
    ];
    for (const start of [0, ...near(FOLDED_WINDOW), ...near(second), Math.floor(2.5 * FOLDED_WINDOW) - 21]) {
      const bytes = Buffer.alloc(Math.floor(2.5 * FOLDED_WINDOW), 'x');
      bytes.write(start % 2 ? literal.toUpperCase() : literal, start, 'latin1');
      const after = start + 3 * literal.length; // and one after it, found from where the first left off
      if (after + literal.length <= bytes.length) bytes.write(literal, after, 'latin1');
      const { folded, regex } = places(literal, bytes);
      expect(regex[0], `at ${start}`).toBe(start);
      expect(folded, `at ${start}`).toEqual(regex);
    }
    const found = places('x', Buffer.alloc(FOLDED_WINDOW + 3, 'X')).folded;
    expect(found).toHaveLength(FOLDED_WINDOW + 3);
  });

  it('never finds the last file searched in the memory past the end of a shorter one', () => {
    expect(places('todo', Buffer.from('todo'.repeat(100))).folded).toHaveLength(100);
    expect(places('todo', Buffer.from('tod'))).toEqual({ folded: [], regex: [] });
    expect(places('todo', Buffer.from('xtodotod'))).toEqual({ folded: [1], regex: [1] });
    expect(places('todo', Buffer.alloc(0))).toEqual({ folded: [], regex: [] });
  });

  it('folds ASCII letters only, as `i` without `u` does: not K (U+212A) to k, nor ſ (U+017F) to s', () => {
    expect(/k/i.test('\u212a')).toBe(false);
    expect(/s/i.test('ſ')).toBe(false);
    const bytes = Buffer.from('\u212a ſ\nK S\n');
    for (const literal of ['k', 's']) {
      const matcher = compileMatcher(literal, true);
      expect(matcher.foldedLiteral).not.toBeNull();
      expect(byteLines(matcher, bytes, 10, 0)?.matches, literal).toEqual([1]);
    }
  });

  it('gives the engine the lines, texts and context of the decoded search', () => {
    let seed = 13;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 400; round++) {
      const bytes = soup(next);
      const text = bytes.toString('utf8');
      for (const literal of ['todo', 'k', 'ab1_ab1_ab1_ab1_ab1_x', '@x']) {
        const matcher = compileMatcher(literal, true);
        const max = round % 5 === 0 ? 1 : Number.POSITIVE_INFINITY;
        const found = byteLines(matcher, bytes, max, round % 3);
        const texts: string[] = [];
        const expected = matchingLines(matcher, text, max, texts);
        const label = `${literal} round ${round}`;
        expect(found!.matches, label).toEqual(expected);
        expect(found!.texts.map(clipLine), label).toEqual(texts.map(clipLine));
      }
    }
  });

  it('passes every file a case-insensitive regular expression finds a line in, and only looks for an ASCII run', () => {
    let seed = 17;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const patterns = ['todo+x', 'x?TODO\\w*', '\\bab1_\\w', 'todo.x', '[ks]todo', '(x)todo'];
    let rejected = 0;
    for (let round = 0; round < 1500; round++) {
      const bytes = soup(next);
      const text = bytes.toString('utf8');
      for (const pattern of patterns) {
        const matcher = compileMatcher(pattern, true);
        expect(matcher.foldsRequired, pattern).toBe(true);
        if (mayMatch(matcher, bytes)) continue;
        rejected++;
        expect(matchingLines(matcher, text), `/${pattern}/i in ${JSON.stringify(text)}`).toEqual([]);
      }
    }
    expect(rejected).toBeGreaterThan(1000); // the check is made, and rejects files
    expect(compileMatcher('néedle\\w', true).required).toBeNull(); // é folds to É in the text, not in the bytes
    expect(compileMatcher('todo', true).required).toBeNull(); // searched case-folded itself
    expect(compileMatcher('todo+x', false).foldsRequired).toBe(false);
  });

  it('is used for plain ASCII patterns only', () => {
    expect(compileMatcher('todo', true).foldedLiteral).not.toBeNull();
    expect(compileMatcher('todo', false).foldedLiteral).toBeNull(); // Buffer.indexOf instead
    expect(compileMatcher('né', true).foldedLiteral).toBeNull(); // é folds to É in the text: the decoded search
    expect(compileMatcher('to.o', true).foldedLiteral).toBeNull();
  });
});

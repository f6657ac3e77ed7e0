/**
 * What a pattern's source says about how a file's raw bytes can be searched for it, without decoding the file
 * (search-engine.ts): most of the JS engine's time on a big tree went into decoding whole files as UTF-8 to run a
 * regular expression over them.
 * - `bytesAlike`: every part of the pattern matches ASCII characters only, so the pattern matches a line's bytes read
 *   one byte a character (latin1, a copy V8 makes at memory speed, searched as a one-byte string) exactly where it
 *   matches the decoded line. Why: UTF-8 writes an ASCII character as that byte and every other character as bytes of
 *   0x80 and above, which latin1 reads as characters no ASCII-only part matches (nor, without the `u` flag, does
 *   case folding map any of them to ASCII); so a match, made of ASCII characters only, is the same run of characters in
 *   both, with neighbours that are ASCII or not alike for `\b`, `^`, `$` and look-around. Not for `.`, a negated class,
 *   `\D \W \S \s` (they match characters above ASCII: one character there is two to four bytes here; `\s` also matches
 *   U+00A0 and U+2028), nor `\x`, `\u`, `\p` escapes or characters above ASCII in the pattern.
 * - `requiredLiteral`: a run of plain characters every match must contain (the longest outside groups and classes, in
 *   a pattern without alternation), looked for in the bytes first, as ripgrep does, so a file without it is never
 *   matched at all. For a case-insensitive pattern, an ASCII run is looked for with its letters in either case
 *   (grep-folded.ts): ASCII letters are all that `i` without the `u` flag folds to ASCII ones.
 */

/** Escapes (after `\`) that match or may match characters above ASCII, or name one by its code. */
const WIDE_ESCAPES = new Set(['D', 'W', 'S', 's', 'x', 'u', 'p', 'P', 'c']);

/** Whether the pattern matches the same lines in a line's latin1 reading of its UTF-8 bytes as in its decoded text. */
export function bytesAlike(pattern: string): boolean {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c.charCodeAt(0) > 0x7f) return false;
    if (c === '\\') {
      const next = pattern[++i];
      if (next === undefined || next.charCodeAt(0) > 0x7f || WIDE_ESCAPES.has(next)) return false;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '.') return false;
    if (c === '[') {
      if (pattern[i + 1] === '^') return false;
      inClass = true;
    }
  }
  return true;
}

const META = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
/** Escapes of a character class, an assertion or a control character: they end a run of plain characters. */
const CLASS_ESCAPES = /[dDwWsSbBnrtfv]/;
/** Escapes followed by arguments (`\x41`, `\u{…}`, `\cJ`, `\p{L}`, `\k<name>`, `\1`): the run is not worked out. */
const ARGUMENT_ESCAPES = /[xucpPk0-9]/;

/**
 * The longest run of characters every match of `pattern` contains, at least `min` long, or null: taken outside groups
 * and classes, a character followed by `?`, `*` or `{` left out (it may be absent), none at all with `|` anywhere.
 */
export function requiredLiteral(pattern: string, min = 3): string | null {
  if (pattern.includes('|')) return null;
  let best = '';
  let run = '';
  const end = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[++i] ?? '';
      if (ARGUMENT_ESCAPES.test(next)) return null;
      if (inClass || depth > 0) continue;
      if (CLASS_ESCAPES.test(next) || next === '') {
        end();
        continue;
      }
      run += next; // an escaped punctuation character stands for itself
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      end();
      inClass = true;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    if (depth > 0 || c === ')') {
      end();
      continue;
    }
    if (c === '?' || c === '*' || c === '{') {
      run = run.slice(0, -1); // the character before may be absent
      end();
      if (c === '{') {
        const bounds = /^\{\d+(,\d*)?\}/.exec(pattern.slice(i));
        if (!bounds) return null; // a `{` that is no quantifier: not worked out
        i += bounds[0].length - 1;
      }
      continue;
    }
    if (META.has(c)) {
      end(); // `+` keeps the character before; `^`, `$`, `.`, `}` end the run
      continue;
    }
    run += c;
  }
  end();
  return best.length >= min && !best.includes('\ufffd') ? best : null;
}

/** Bytes that are all ASCII, without a CR (a line's CR before its LF is not part of the line a pattern sees). */
export function isAsciiLiteral(literal: Buffer): boolean {
  for (const byte of literal) if (byte >= 0x80 || byte === 0x0d) return false;
  return true;
}

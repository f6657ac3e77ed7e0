/**
 * Finding a file's matching lines on its raw bytes (`byteLines`), for the patterns whose matches can be found there
 * exactly: most of the JS engine's time on a big tree went into decoding whole files to run a regular expression over
 * them (grep-pattern.ts says which patterns, and why).
 */
import { foldedFinder } from './grep-folded';
import { isAsciiLiteral } from './grep-pattern';
import { isPastLastLine, MAX_MATCH_LINE_CHARS, type Matcher, withTimeLimit } from './search-engine';

/** The matching lines of a file, with their texts, and (asked for) the texts of the context lines around them. */
export interface LinesFound {
  /** 0-based line numbers. */
  matches: number[];
  /** Each match's line, without its line ending. */
  texts: string[];
  /** Matching and context lines by number, when context was asked for. */
  around: Map<number, string> | null;
}

/**
 * `matchingLines` on the raw bytes, for an ASCII literal (case-sensitive: found with `Buffer.indexOf`; not: with its
 * letters in either case, grep-folded.ts) or a pattern whose parts match ASCII only (`bytesAlike`: run over the bytes
 * read as latin1); only the lines shown are decoded, never the file (decoding a multi-megabyte file that is not all
 * ASCII costs more than the search). Exact: a UTF-8 decoder never takes an ASCII byte into another character (an
 * invalid sequence ends before it), so the bytes of an ASCII literal, and of `\n`, are found where the decoded text
 * has them, and a line decoded alone is that line of the decoded text (for `bytesAlike`, grep-pattern.ts says why the
 * latin1 line matches where the text does; grep-folded.ts why the case-folded bytes do). Null when the matcher is
 * neither.
 */
export function byteLines(
  matcher: Matcher,
  bytes: Buffer,
  max: number,
  context: number,
  withTexts = true,
): LinesFound | null {
  const literal = matcher.literal;
  if (literal && isAsciiLiteral(literal)) {
    const at = (from: number) => bytes.indexOf(literal, from);
    return linesAt(bytes, literalFinder(bytes, at), max, context, withTexts);
  }
  const folded = matcher.foldedLiteral && foldedFinder(matcher.foldedLiteral, bytes);
  if (folded) return linesAt(bytes, literalFinder(bytes, folded), max, context, withTexts);
  if (!matcher.bytesAlike) return null;
  const run = matcher.looksAround ? null : runPlaces(matcher, bytes);
  const next = () => (run ? runLineFinder(matcher, bytes, run) : latin1Finder(matcher, bytes));
  const find = () => linesAt(bytes, next(), max, context, withTexts);
  return matcher.backtracks ? withTimeLimit(find) : find();
}

/** The next matching line at or after a byte offset: its start and end (the end at its `\n`, or the file's end). */
type LineFinder = (from: number) => { start: number; end: number } | null;

/** The lines of a literal's places in the bytes, `place(from)` giving the next at or after `from` (or -1). */
function literalFinder(bytes: Buffer, place: (from: number) => number): LineFinder {
  return (from) => {
    const at = place(from);
    if (at === -1) return null;
    const start = at === 0 ? 0 : bytes.lastIndexOf(NEWLINE, at - 1) + 1;
    const end = bytes.indexOf(NEWLINE, at);
    return { start, end: end === -1 ? bytes.length : end };
  };
}

/** Where the pattern's required run (search-engine.ts `Matcher.required`) lies in the bytes; null: none to look for. */
function runPlaces(matcher: Matcher, bytes: Buffer): ((from: number) => number) | null {
  const run = matcher.required;
  if (run === null || run.includes(NEWLINE)) return null;
  return matcher.foldsRequired ? foldedFinder(run, bytes) : (from) => bytes.indexOf(run, from);
}

/**
 * The pattern tried on the lines that hold its required run, each read alone as latin1, instead of run over the whole
 * file's (as ripgrep does: the file is never copied to a string, and the regular expression sees a few lines). Exact
 * for a pattern without look-around or back-references (`Matcher.looksAround` false): every match holds the run, and
 * a line's own match is one in the whole text at the same place (`^`, `$` and `\b` see a line's edge alike with the
 * `m` flag), so `latin1Finder`'s pass over the text, which confirms each candidate line alone, gives the same lines.
 */
function runLineFinder(matcher: Matcher, bytes: Buffer, place: (from: number) => number): LineFinder {
  return (from) => {
    for (let at = place(from); at !== -1; at = place(from)) {
      const start = at === 0 ? 0 : bytes.lastIndexOf(NEWLINE, at - 1) + 1;
      let end = bytes.indexOf(NEWLINE, at);
      if (end === -1) end = bytes.length;
      const lineEnd = end > start && bytes[end - 1] === 0x0d ? end - 1 : end;
      if (matcher.line.test(bytes.toString('latin1', start, lineEnd))) return { start, end };
      if (end >= bytes.length) return null;
      from = end + 1;
    }
    return null;
  };
}

/** The pattern run over the bytes read as latin1 (a one-byte string: character offsets are byte offsets). */
function latin1Finder(matcher: Matcher, bytes: Buffer): LineFinder {
  const text = bytes.toString('latin1');
  const re = matcher.scan;
  return (from) => {
    re.lastIndex = from;
    for (;;) {
      const m = re.exec(text);
      if (!m || isPastLastLine(text, m.index)) return null;
      const start = m.index === 0 ? 0 : text.lastIndexOf('\n', m.index - 1) + 1;
      let end = text.indexOf('\n', m.index);
      if (end === -1) end = text.length;
      const raw = text.slice(start, end);
      if (matcher.line.test(raw.endsWith('\r') ? raw.slice(0, -1) : raw)) return { start, end };
      if (end >= text.length) return null;
      re.lastIndex = end + 1;
    }
  };
}

/** The lines `next` finds, up to `max`; their texts decoded (`withTexts`: a count needs none), and their context. */
function linesAt(bytes: Buffer, next: LineFinder, max: number, context: number, withTexts: boolean): LinesFound {
  const matches: number[] = [];
  const texts: string[] = [];
  const starts: number[] = [];
  // A line longer than is shown (a minified bundle's line can be megabytes) is decoded only as far as `clipLine`
  // keeps, and enough past that for `clipLine` to see it is longer.
  const line = (start: number, end: number) => {
    const text = bytes.toString('utf8', start, Math.min(end, start + LINE_DECODE_BYTES));
    return text.endsWith('\r') && end - start <= LINE_DECODE_BYTES ? text.slice(0, -1) : text;
  };
  let lineNo = 0;
  let counted = 0; // byte offset up to which newlines have been counted into lineNo
  let from = 0;
  while (matches.length < max) {
    const found = next(from);
    if (!found) break;
    const { start, end } = found;
    for (let i = bytes.indexOf(NEWLINE, counted); i !== -1 && i < start; i = bytes.indexOf(NEWLINE, i + 1)) lineNo++;
    counted = start;
    matches.push(lineNo);
    starts.push(start);
    if (withTexts) texts.push(line(start, end));
    if (end >= bytes.length) break;
    from = end + 1;
  }
  if (context <= 0) return { matches, texts, around: null };
  const around = new Map<number, string>();
  matches.forEach((no, k) => {
    around.set(no, texts[k]!);
    // Back from the match's line start, then on from its end, one line at a time.
    let start = starts[k]!;
    for (let n = 1; n <= context && start > 0; n++) {
      const prev = start === 1 ? 0 : bytes.lastIndexOf(NEWLINE, start - 2) + 1;
      if (!around.has(no - n)) around.set(no - n, line(prev, start - 1));
      start = prev;
    }
    let end = bytes.indexOf(NEWLINE, starts[k]!);
    for (let n = 1; n <= context && end !== -1 && end + 1 < bytes.length; n++) {
      let next = bytes.indexOf(NEWLINE, end + 1);
      if (next === -1) next = bytes.length;
      if (!around.has(no + n)) around.set(no + n, line(end + 1, next));
      end = next === bytes.length ? -1 : next;
    }
  });
  return { matches, texts, around };
}

const NEWLINE = 0x0a;
/**
 * Bytes of a line decoded at most: a character takes at most 3 bytes per UTF-16 unit, so the first
 * MAX_MATCH_LINE_CHARS + 1 units of the line are always whole and exact (a character cut at the end is far beyond).
 */
const LINE_DECODE_BYTES = 3 * (MAX_MATCH_LINE_CHARS + 1) + 16;

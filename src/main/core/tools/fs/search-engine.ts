/**
 * The line matcher behind `search_file` and `grep_files`. Patterns are JavaScript regular expressions matched per
 * line (like grep/ripgrep without multiline mode). Speed comes from two things: a literal pattern is first looked
 * for in the raw bytes (`Buffer.indexOf`, memchr-fast) so files without it are never decoded; a regex runs once over
 * the whole text to find candidate lines, and each candidate line is then confirmed on its own, so line semantics
 * stay exact (a `\s` that would span a newline does not produce a match).
 * Limits: look-behind at the very start of a line can see the previous line during the candidate pass and miss a
 * match that a per-line grep would report; regex syntax is JavaScript's, not ripgrep's (no `(?i)` inline flags).
 */
import { setFlagsFromString } from 'node:v8';
import { createContext, Script } from 'node:vm';
import { ToolError } from '../define-tool';
import { foldedFinder } from './grep-folded';
import { bytesAlike, isAsciiLiteral, requiredLiteral } from './grep-pattern';

/**
 * A pattern is the model's to choose, and JavaScript's regular expressions backtrack: `(a+)+$` over a line of 40 `a`s
 * and a `b` would hold the process for days, and a search running on its thread cannot be stopped. With this flag V8
 * moves such a match to its linear-time engine after 50,000 backtracks (2.6 ms for that line). The flag is the
 * process's, for every regular expression in it (docs/tools.md "The catalogue").
 */
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
/**
 * Look-around and back-references have no linear-time form, so the flag above cannot save a pattern with them, and
 * `^(?=(a+)+$)x` would still hold the thread for good. Such a pattern is known by the linear engine's own `l` flag
 * (enabled by this one; it refuses them), and its matching runs under a time limit instead (`withTimeLimit`).
 */
setFlagsFromString('--enable-experimental-regexp-engine');
const HAS_LINEAR_FLAG = (() => {
  try {
    return new RegExp('a', 'l').flags.includes('l');
  } catch {
    return false;
  }
})();

/** How long one file's matching may take with a pattern that can backtrack without end (a 64 MB file scans in under 1 s). */
export const BACKTRACKING_LIMIT_MS = 3000;

export interface Matcher {
  /** The whole-text candidate finder (global, multiline). */
  readonly scan: RegExp;
  /** The per-line confirmation. */
  readonly line: RegExp;
  /** Bytes every matching file must contain, when the pattern is a plain literal; null otherwise. */
  readonly literal: Buffer | null;
  /** The same, for a case-insensitive plain pattern of ASCII: found with letters in either case (grep-folded.ts). */
  readonly foldedLiteral: Buffer | null;
  /** Bytes every match contains (the pattern's plain run, grep-pattern.ts), looked for first; or null. */
  readonly required: Buffer | null;
  /** `required` is looked for with its letters in either case (a case-insensitive pattern's run, ASCII only). */
  readonly foldsRequired: boolean;
  /** The pattern matches a line's latin1 reading of its bytes as it matches its text (grep-pattern.ts `bytesAlike`). */
  readonly bytesAlike: boolean;
  /** The pattern has look-around or back-references: it can backtrack without end, so it is matched under a time limit. */
  readonly backtracks: boolean;
  /**
   * The pattern may have look-around or back-references (the linear-time engine refuses it without the `i` flag, which
   * that engine does not take at all): a line's own match may then not be one in the whole text.
   */
  readonly looksAround: boolean;
}

const REGEX_META = /[\\^$.*+?()[\]{}|]/;

/** Longest pattern accepted: longer ones are refused by the schema, with a short error that does not echo them. */
export const MAX_PATTERN_CHARS = 4096;

/** A matching line is shown up to this many characters (`clipLine`). */
export const MAX_MATCH_LINE_CHARS = 500;

export function compileMatcher(pattern: string, caseInsensitive: boolean): Matcher {
  if (pattern === '') throw new ToolError('pattern is empty; pass the text or regular expression to look for.');
  const flags = caseInsensitive ? 'i' : '';
  let line: RegExp;
  let scan: RegExp;
  try {
    line = new RegExp(pattern, flags);
    scan = new RegExp(pattern, `${flags}gm`);
  } catch (error) {
    throw new ToolError(
      `pattern is not a valid regular expression (${(error as Error).message}). Escape special characters such as ( [ { . * + ? with a backslash.`,
    );
  }
  const isLiteral = !REGEX_META.test(pattern) && !pattern.includes('\n');
  const literal = isLiteral && !caseInsensitive ? Buffer.from(pattern, 'utf8') : null;
  const foldedLiteral = isLiteral && caseInsensitive ? Buffer.from(pattern, 'utf8') : null;
  // A case-insensitive literal is itself searched case-folded on the bytes (`byteLines`): no run to look for first.
  const run = literal || (isLiteral && caseInsensitive) ? null : requiredLiteral(pattern);
  const required = literal ?? (run === null ? null : Buffer.from(run, 'utf8'));
  const foldsRequired = caseInsensitive && required !== null;
  return {
    scan,
    line,
    literal,
    foldedLiteral: foldedLiteral && isAsciiLiteral(foldedLiteral) ? foldedLiteral : null,
    // Folded, a run must be ASCII: `i` folds é to É in the text, whose bytes are another run.
    required: foldsRequired && !isAsciiLiteral(required) ? null : required,
    foldsRequired,
    bytesAlike: bytesAlike(pattern),
    backtracks: !isLiteral && needsBacktracking(pattern, flags),
    looksAround: !isLiteral && needsBacktracking(pattern, ''),
  };
}

/** Whether the linear-time engine refuses the pattern (without that engine, every pattern counts as such). */
function needsBacktracking(pattern: string, flags: string): boolean {
  if (!HAS_LINEAR_FLAG) return true;
  try {
    new RegExp(pattern, `${flags}l`);
    return false;
  } catch {
    return true;
  }
}

const timedContext = createContext({});
const timedRun = new Script('run()');

/**
 * `work` stopped after BACKTRACKING_LIMIT_MS. A script run with a `timeout` is stopped by V8 wherever it is, in a
 * regular expression's backtracking too (a watchdog thread; about 25 µs a run), and `work` runs inside that script.
 */
export function withTimeLimit<T>(work: () => T): T {
  (timedContext as { run?: () => T }).run = work;
  try {
    return timedRun.runInContext(timedContext, { timeout: BACKTRACKING_LIMIT_MS }) as T;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw error;
    throw new ToolError(
      `the pattern was stopped after ${BACKTRACKING_LIMIT_MS / 1000} s on one file: with look-around or back-references, repeats inside repeats can backtrack without end. Simplify the pattern (no nested + or *), or search for a plain part of it.`,
    );
  } finally {
    (timedContext as { run?: () => T }).run = undefined;
  }
}

/** Quick reject on raw bytes: false means the file cannot contain a match. */
export function mayMatch(matcher: Matcher, bytes: Buffer): boolean {
  const required = matcher.required;
  if (required === null) return true;
  if (!matcher.foldsRequired) return bytes.indexOf(required) !== -1;
  const find = foldedFinder(required, bytes);
  return find === null || find(0) !== -1;
}

/** 0-based numbers of the matching lines of `text`, at most `max` of them. */
export function matchingLines(
  matcher: Matcher,
  text: string,
  max = Number.POSITIVE_INFINITY,
  texts?: string[],
): number[] {
  return matcher.backtracks
    ? withTimeLimit(() => scanLines(matcher, text, max, texts))
    : scanLines(matcher, text, max, texts);
}

/**
 * Whether an (empty) match at `at` lies after the last line: at the end of a text that ends with its last line's
 * break, or of an empty one. `^$` matches there in JavaScript; a line search (and ripgrep) has no line there.
 */
export const isPastLastLine = (text: string, at: number) =>
  at === text.length && (at === 0 || text.charCodeAt(at - 1) === 0x0a);

function scanLines(matcher: Matcher, text: string, max: number, texts?: string[]): number[] {
  const out: number[] = [];
  const re = matcher.scan;
  re.lastIndex = 0;
  let lineNo = 0;
  let counted = 0; // text offset up to which newlines have been counted into lineNo
  while (out.length < max) {
    const m = re.exec(text);
    if (!m || isPastLastLine(text, m.index)) break;
    const at = m.index;
    const start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    for (let i = text.indexOf('\n', counted); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) lineNo++;
    counted = start;
    const raw = text.slice(start, end);
    const candidate = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (matcher.line.test(candidate)) {
      out.push(lineNo);
      texts?.push(candidate);
    }
    if (end >= text.length) break;
    re.lastIndex = end + 1;
  }
  return out;
}

export interface Hunk {
  /** 0-based line numbers and texts, in order; `isMatch` marks matches (the rest are context). */
  lines: { no: number; text: string; isMatch: boolean }[];
}

/** A file's lines by number (0-based, without the line ending); undefined past the last line. */
export interface LineSource {
  at(no: number): string | undefined;
}

/**
 * The lines of a text, found on demand: one indexOf pass for where lines start, and a string only for a line that
 * is asked for, so the context of a few matches in a large file costs no split of the whole file.
 */
export function lineIndex(text: string): LineSource {
  const starts: number[] = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  // A final newline ends the last line; it does not start another.
  const count = starts[starts.length - 1] === text.length ? starts.length - 1 : starts.length;
  return {
    at(no) {
      if (no < 0 || no >= count) return undefined;
      const line = text.slice(starts[no]!, no + 1 < starts.length ? starts[no + 1]! - 1 : text.length);
      return line.endsWith('\r') ? line.slice(0, -1) : line;
    },
  };
}

/**
 * The lines of UTF-8 `bytes` as `lineIndex` gives them from the decoded text, found by scanning the bytes for line
 * breaks only as far as the lines asked for, and decoding those alone (a line break is never inside a multi-byte
 * character, so a line decodes alike on its own). Checking a few lines of a file this way costs a fraction of
 * decoding and indexing its whole text. Valid only while `bytes` is (a search reader's view).
 */
export function byteLineSource(bytes: Buffer): LineSource {
  const starts: number[] = [0]; // where each line found so far starts (past the last line: +Infinity)
  return {
    at(no) {
      if (no < 0) return undefined;
      while (starts.length <= no) {
        const last = starts[starts.length - 1]!;
        if (last >= bytes.length) return undefined;
        const lf = bytes.indexOf(0x0a, last);
        starts.push(lf === -1 ? Number.POSITIVE_INFINITY : lf + 1);
      }
      const start = starts[no]!;
      if (start >= bytes.length) return undefined;
      let end = bytes.indexOf(0x0a, start);
      if (end === -1) end = bytes.length;
      if (end > start && bytes[end - 1] === 0x0d) end--;
      return bytes.toString('utf8', start, end);
    },
  };
}

/** Groups matches with their context lines into hunks (overlapping context is merged, as grep does). */
export function hunks(lines: LineSource, matches: readonly number[], context: number): Hunk[] {
  const out: Hunk[] = [];
  const matchSet = new Set(matches);
  let current: Hunk | null = null;
  let lastEmitted = -1;
  for (const m of matches) {
    const from = Math.max(0, m - context, lastEmitted + 1);
    if (!current || from > lastEmitted + 1) {
      current = { lines: [] };
      out.push(current);
    }
    for (let no = from; no <= m + context; no++) {
      const text = lines.at(no);
      if (text === undefined) break; // past the last line
      current.lines.push({ no, text, isMatch: matchSet.has(no) });
      lastEmitted = no;
    }
  }
  return out;
}

export function clipLine(text: string): string {
  return text.length > MAX_MATCH_LINE_CHARS ? `${text.slice(0, MAX_MATCH_LINE_CHARS)}…` : text;
}

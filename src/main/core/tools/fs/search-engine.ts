/**
 * The line matcher behind `search_file` and `grep_files`. Patterns are JavaScript regular expressions matched per
 * line (like grep/ripgrep without multiline mode). Speed comes from two things: a literal pattern is first looked
 * for in the raw bytes (`Buffer.indexOf`, memchr-fast) so files without it are never decoded; a regex runs once over
 * the whole text to find candidate lines, and each candidate line is then confirmed on its own, so line semantics
 * stay exact (a `\s` that would span a newline does not produce a match).
 * Limits: look-behind at the very start of a line can see the previous line during the candidate pass and miss a
 * match that a per-line grep would report; regex syntax is JavaScript's, not ripgrep's (no `(?i)` inline flags).
 */
import { ToolError } from '../define-tool';

export interface Matcher {
  /** The whole-text candidate finder (global, multiline). */
  readonly scan: RegExp;
  /** The per-line confirmation. */
  readonly line: RegExp;
  /** Bytes every matching file must contain, when the pattern is a plain literal; null otherwise. */
  readonly literal: Buffer | null;
}

const REGEX_META = /[\\^$.*+?()[\]{}|]/;

/** Longest pattern accepted: longer ones are refused by the schema, with a short error that does not echo them. */
export const MAX_PATTERN_CHARS = 4096;

export function compileMatcher(pattern: string, caseInsensitive: boolean): Matcher {
  if (pattern === '') throw new ToolError('pattern is empty; pass the text or regular expression to look for.');
  const flags = caseInsensitive ? 'i' : '';
  let line: RegExp;
  let scan: RegExp;
  try {
    line = new RegExp(pattern, flags);
    scan = new RegExp(pattern, `${flags}gm`);
  } catch (error) {
    throw new ToolError(`pattern is not a valid regular expression (${(error as Error).message}). Escape special characters such as ( [ { . * + ? with a backslash.`);
  }
  const isLiteral = !REGEX_META.test(pattern) && !pattern.includes('\n');
  return { scan, line, literal: isLiteral && !caseInsensitive ? Buffer.from(pattern, 'utf8') : null };
}

/** Quick reject on raw bytes: false means the file cannot contain a match. */
export function mayMatch(matcher: Matcher, bytes: Buffer): boolean {
  return matcher.literal === null || bytes.indexOf(matcher.literal) !== -1;
}

/** 0-based numbers of the matching lines of `text`, at most `max` of them. */
export function matchingLines(matcher: Matcher, text: string, max = Number.POSITIVE_INFINITY): number[] {
  const out: number[] = [];
  const re = matcher.scan;
  re.lastIndex = 0;
  let lineNo = 0;
  let counted = 0; // text offset up to which newlines have been counted into lineNo
  while (out.length < max) {
    const m = re.exec(text);
    if (!m) break;
    const at = m.index;
    const start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    for (let i = text.indexOf('\n', counted); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) lineNo++;
    counted = start;
    const raw = text.slice(start, end);
    const candidate = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (matcher.line.test(candidate)) out.push(lineNo);
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

export const MAX_MATCH_LINE_CHARS = 500;
export function clipLine(text: string): string {
  return text.length > MAX_MATCH_LINE_CHARS ? `${text.slice(0, MAX_MATCH_LINE_CHARS)}…` : text;
}

/** A small glob (`*`, `**`, `?`, `{a,b}`) as a regex; a glob without `/` matches the file name only. */
export function globMatcher(glob: string): (rel: string) => boolean {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
        i += glob[i + 2] === '/' ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += glob.slice(0, i).lastIndexOf('{') > glob.slice(0, i).lastIndexOf('}') ? '|' : ',';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  const compiled = new RegExp(`^${re}$`);
  const byName = !glob.includes('/');
  return (rel) => compiled.test(byName ? rel.slice(rel.lastIndexOf('/') + 1) : rel);
}

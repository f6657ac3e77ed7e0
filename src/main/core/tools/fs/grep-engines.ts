/**
 * The two search engines behind `grep_files`, and what they share. Both yield files with their matching line numbers
 * (0-based) in the same order, the walk's: in each folder its files first, then its subfolders, by name; so
 * pagination is stable and both give the same pages.
 * - ripgrep (`grep-ripgrep.ts`, preferred when a binary is available, as VS Code's search does).
 * - JS (here; used when rg is absent or refuses the pattern): the policy facade's `walk` + `SearchReader` +
 *   `matchingLines`, streaming, stops early.
 * Neither engine follows symlinks while searching (ripgrep's default; the JS engine skips them to match).
 * Limits: ripgrep's regex dialect is Rust's; a pattern valid in both but with different meaning (`\d` is Unicode
 * in Rust) may match slightly differently across engines. Binary detection differs at the edges (the JS engine
 * looks for NUL in the first 8 KB, ripgrep in what it has read so far).
 */
import { kindAt, looksBinary, SearchReader, walk } from '../_policy/fs';
import { globMatcher, matchingLines, mayMatch, type Matcher } from './search-engine';

export const MAX_GREP_FILE_BYTES = 10 * 1024 * 1024;
const YIELD_EVERY_MS = 8;

export interface GrepQuery {
  pattern: string;
  caseInsensitive: boolean;
  glob?: string | undefined;
  /** What the answer needs: matching lines (`content`), matching files (`files`), or matches per file (`count`). */
  mode: 'content' | 'files' | 'count';
  /** Lines of context around each match (content mode): ripgrep prints them, so files are not read again. */
  context?: number;
}

export interface FileMatches {
  rel: string;
  /** Real path to read for content (inside the root). */
  path: string;
  /** 0-based matching line numbers (empty when only `count` is known). */
  matches: number[];
  /** The number of matching lines, when the engine counted without listing them (rg in files/count mode). */
  count?: number;
  /** The decoded text when the engine already has it. */
  text?: string;
  /** The matching lines' texts, aligned with `matches` (ripgrep prints them; no need to re-read the file). */
  matchTexts?: string[];
  /** Matching and context lines by number, when ripgrep printed the context too. */
  lineTexts?: Map<number, string>;
}

/**
 * The walk's order: in each folder its files first, then its subfolders, each sorted by name (byte order).
 * Used to sort ripgrep's parallel output into the order the JS engine streams in.
 */
export function compareRel(a: string, b: string): number {
  return compareParts(a.split('/'), b.split('/'));
}

export function compareParts(pa: readonly string[], pb: readonly string[]): number {
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] === pb[i]) continue;
    const aIsFile = i === pa.length - 1;
    const bIsFile = i === pb.length - 1;
    if (aIsFile !== bIsFile) return aIsFile ? -1 : 1;
    return pa[i]! < pb[i]! ? -1 : 1;
  }
  return pa.length - pb.length;
}

export async function* jsEngine(root: string, isFile: boolean, q: GrepQuery, matcher: Matcher, signal: AbortSignal, skip?: (path: string) => boolean): AsyncGenerator<FileMatches> {
  const wanted = q.glob ? globMatcher(q.glob) : null;
  const candidates = isFile ? [{ rel: root.slice(root.lastIndexOf('/') + 1), path: root, kind: 'file' as const, isBlocked: false, isSymlink: false }] : walk(root, { recursive: true, noFollow: true, ...(skip ? { skip } : {}) });
  const reader = new SearchReader();
  let last = Date.now();
  for (const entry of candidates) {
    if (Date.now() - last > YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
      last = Date.now();
    }
    if (entry.kind !== 'file' || entry.isBlocked || entry.isSymlink) continue;
    if (wanted && !wanted(entry.rel)) continue;
    const bytes = reader.read(entry.path, MAX_GREP_FILE_BYTES);
    if (!bytes || !mayMatch(matcher, bytes) || looksBinary(bytes)) continue;
    const text = bytes.toString('utf8');
    const matches = matchingLines(matcher, text);
    if (matches.length > 0) yield { rel: entry.rel, path: entry.path, matches, text };
  }
}

/** The first ripgrep binary among the candidates, or null. */
export function findRipgrep(candidates: readonly (string | undefined | null)[]): string | null {
  for (const c of candidates) if (c && kindAt(c) === 'file') return c;
  return null;
}

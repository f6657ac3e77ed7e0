/**
 * The two search engines behind `grep_files`; both yield files with their matching line numbers (0-based) in the
 * same order — the walk's: in each folder its files first, then its subfolders, by name — so pagination is stable
 * and both give the same pages.
 * - ripgrep (preferred when a binary is available, as VS Code's search does): one `rg` process searches in
 *   parallel; we pass the policy as flags (`--iglob '!secrets/'` and the other SKIP_DIRS, no symlink following,
 *   `--hidden --no-ignore` like the JS engine, `--max-filesize`), then sort its per-file results. Its output is
 *   capped; over the cap, or on a pattern Rust's regex syntax rejects (look-around, back-references), we fall
 *   back to the JS engine.
 * - JS (fallback): the policy facade's `walk` + `SearchReader` + `matchingLines`, streaming, stops early.
 * Neither engine follows symlinks while searching (ripgrep's default; the JS engine skips them to match).
 * Limits: ripgrep's regex dialect is Rust's; a pattern valid in both but with different meaning (`\d` is Unicode
 * in Rust) may match slightly differently across engines. Binary detection differs at the edges (the JS engine
 * looks for NUL in the first 8 KB, ripgrep in what it has read so far).
 */
import { execa } from 'execa';
import { kindAt, looksBinary, SearchReader, SKIP_DIRS, walk } from '../_policy/fs';
import { SECRETS_DIR } from '../_policy/guard';
import { globMatcher, matchingLines, mayMatch, type Matcher } from './search-engine';

export const MAX_GREP_FILE_BYTES = 10 * 1024 * 1024;
/** Above this much rg output the JS engine (which stops early) is the better tool. */
const MAX_RG_OUTPUT = 64 * 1024 * 1024;
const YIELD_EVERY_MS = 8;

export interface GrepQuery {
  pattern: string;
  caseInsensitive: boolean;
  glob?: string | undefined;
  /** Only the count per file is needed (files_only / count): lets rg skip printing lines. */
  countsOnly: boolean;
}

export interface FileMatches {
  rel: string;
  /** Real path to read for content (inside the root). */
  path: string;
  /** 0-based matching line numbers; for a counts-only query from rg only the length is meaningful. */
  matches: number[];
  /** The decoded text when the engine already has it. */
  text?: string;
  /** The matching lines' texts, aligned with `matches` (ripgrep prints them; no need to re-read the file). */
  matchTexts?: string[];
}

/**
 * The walk's order: in each folder its files first, then its subfolders, each sorted by name (byte order).
 * Used to sort ripgrep's parallel output into the order the JS engine streams in.
 */
export function compareRel(a: string, b: string): number {
  return compareParts(a.split('/'), b.split('/'));
}

function compareParts(pa: readonly string[], pb: readonly string[]): number {
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

/** Returns null when the caller should use the JS engine instead (no rg, rg refused the pattern, too much output). */
export async function ripgrepEngine(rgPath: string, root: string, isFile: boolean, q: GrepQuery, signal: AbortSignal): Promise<FileMatches[] | null> {
  const args = ['--no-config', '--hidden', '--no-ignore', '--no-messages', '--null', '--color', 'never', '--max-filesize', String(MAX_GREP_FILE_BYTES)];
  args.push(q.countsOnly ? '--count' : '--line-number', '--no-heading');
  if (q.caseInsensitive) args.push('--ignore-case');
  for (const dir of SKIP_DIRS) args.push('--iglob', `!${dir}/`);
  args.push('--iglob', `!${SECRETS_DIR}`); // the walk skips a *file* named secrets too
  if (q.glob) args.push('--glob', q.glob);
  args.push('--regexp', q.pattern, '--', isFile ? root : '.');
  const result = await execa(rgPath, args, {
    cwd: isFile ? undefined : root,
    reject: false,
    cancelSignal: signal,
    maxBuffer: MAX_RG_OUTPUT,
    stripFinalNewline: false,
    stdin: 'ignore',
    env: {},
    extendEnv: false,
  });
  signal.throwIfAborted();
  if (result.isMaxBuffer || result.failed && result.exitCode !== 1 && result.exitCode !== 2) return null;
  if (result.exitCode === 2 && /regex parse error|error parsing regex|look-around|backreference/i.test(String(result.stderr))) return null;
  const byFile = new Map<string, { matches: number[]; texts: string[] }>();
  for (const line of String(result.stdout).split('\n')) {
    const cut = line.indexOf('\0');
    if (cut <= 0) continue;
    let rel = line.slice(0, cut);
    if (isFile) rel = rel.slice(rel.lastIndexOf('/') + 1);
    else if (rel.startsWith('./')) rel = rel.slice(2);
    const rest = line.slice(cut + 1);
    let file = byFile.get(rel);
    if (!file) byFile.set(rel, (file = { matches: [], texts: [] }));
    if (q.countsOnly) {
      const n = Number(rest);
      for (let i = 0; i < n; i++) file.matches.push(i);
    } else {
      const colon = rest.indexOf(':');
      file.matches.push(Number(rest.slice(0, colon)) - 1);
      const text = rest.slice(colon + 1);
      file.texts.push(text.endsWith('\r') ? text.slice(0, -1) : text);
    }
  }
  // Split each path once, not once per comparison (thousands of files).
  const keyed = [...byFile].map(([rel, f]) => ({ parts: rel.split('/'), rel, f }));
  keyed.sort((a, b) => compareParts(a.parts, b.parts));
  return keyed.map(({ rel, f }) => ({ rel, path: isFile ? root : `${root}/${rel}`, matches: f.matches, ...(q.countsOnly ? {} : { matchTexts: f.texts }) }));
}

/** The first ripgrep binary among the candidates, or null. */
export function findRipgrep(candidates: readonly (string | undefined | null)[]): string | null {
  for (const c of candidates) if (c && kindAt(c) === 'file') return c;
  return null;
}

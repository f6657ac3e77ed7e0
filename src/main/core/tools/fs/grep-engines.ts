/**
 * The two search engines behind `grep_files`, and what they share. Both yield files with their matching line numbers
 * (0-based) in the same order, the walk's: in each folder its files first, then its subfolders, by name; so
 * pagination is stable and both give the same pages.
 * - ripgrep (`grep-ripgrep.ts`, preferred when a binary is available, as VS Code's search does).
 * - JS (here; used when rg is absent or refuses the pattern): the policy facade's `walk` + `SearchReader`
 *   (search-reader.ts) + `matchingLines`, streaming, stops early. A search still running after POOL_AFTER_MS (a big tree, few hits)
 *   hands the reading and matching to worker threads (grep-pool.ts), once they are ready, and keeps the walk's order.
 * Neither engine follows symlinks while searching (ripgrep's default; the JS engine skips them to match).
 * Both follow ripgrep's binary rule (grep-binary.ts): a NUL in a file's first 64 KB makes it binary; one found later
 * ends the search of that file before the part of it rg would have read with the NUL, and leaves the file out of a
 * count. Limits: ripgrep's regex dialect is Rust's; a pattern valid in both but with different meaning (`\d` is
 * Unicode in Rust) may match slightly differently across engines.
 */
import { kindAt, walk } from '../_policy/fs';
import { isGuardedIdentity } from '../../disk/open';
import type { GuardScope } from '../../disk/protected';
import { SearchReader } from '../../disk/search-reader';
import { fileHit } from './grep-file-hits';
import { FOUND, SEARCH_HERE, type GrepPool, type PoolAnswer } from './grep-pool';
import { globMatcher } from './grep-glob';
import type { Matcher } from './search-engine';

export const MAX_GREP_FILE_BYTES = 10 * 1024 * 1024;
const YIELD_EVERY_MS = 8;
/**
 * The JS engine searches alone this long before it starts the pool's workers if they are not running (a medium tree's
 * search ends alone, and two workers starting take the cores from it)…
 */
export const POOL_WARM_MS = 8;
/**
 * …and this long before it hands the reading to the pool, once its workers are ready; until they are, it goes on
 * alone, so a cold pool never holds a search up (a worker answers its first job about 50 ms after it starts). Handed
 * over at 40 ms to workers it then waited for, the generated tree of 6,000 files took 79.5 ms (rg's run 36.5) and a
 * rare literal in node_modules 197.5 ms (rg's 135.6); handed to ready workers at 16 ms, 67.4 and 171.1
 * (bench/tools-grep.ts). The event loop's turns come every YIELD_EVERY_MS, so the two are checked at about 9 and 18 ms.
 */
export const POOL_AFTER_MS = 16;
/**
 * Files per pool job: the first jobs small, so that the walk's first files come back soon (a page is read in the walk's
 * order, and waits for the job that holds its next file), then doubling to POOL_CHUNK; and jobs in flight ahead of the
 * one being read.
 */
const POOL_FIRST_CHUNK = 32;
const POOL_CHUNK = 512;
const POOL_AHEAD = 4;
/**
 * A page's jobs reach no further ahead than the files it may still need: those its hits so far say it needs (its
 * entries left, at the files searched per entry found), this many times over. With jobs of 512 files four ahead, a page
 * of `-i todo` in node_modules (its 101st hit at the 1,393rd file) had sent 3,552 files when it ended, and the job
 * holding its last hit was read to its end before it came back.
 */
const PAGE_AHEAD = 1.5;

/** How many files a page's search may have in the pool's hands (unbounded until a hit says how far the page goes). */
export function filesAhead(entries: number | undefined, found: number, searched: number): number {
  if (entries === undefined || found === 0) return Number.POSITIVE_INFINITY;
  return Math.ceil(Math.max(0, entries - found) * (searched / found) * PAGE_AHEAD);
}

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
  /** Where each line ripgrep printed starts in the file, in bytes, by number: its lines are checked there alone. */
  lineOffsets?: Map<number, number>;
  /**
   * The bytes were read on a descriptor confirmed to be the file the path names, through real folders (the JS engine).
   * ripgrep opens files by their paths, which a folder swapped for a link can send into `secrets/`: its hits are read
   * again before anything of them reaches an answer (grep-files.ts).
   */
  confirmed?: true;
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

export interface JsEngineOptions {
  skip?: (path: string) => boolean;
  /** Whose guarded files a hard link must not reach: such a file is not read (judged on its descriptor). */
  guard?: GuardScope | null;
  /** Worker threads that read and match files for the walk; absent or null = this thread only. */
  pool?: GrepPool | null;
  /** Searching alone this long first (most pages end sooner); then the pool takes the reading. Default POOL_AFTER_MS. */
  poolAfterMs?: number;
  /** Checked after each file: true ends the search there (the files searched are then a prefix of the walk). */
  until?: () => boolean;
  /** Filled as the search goes: the last file searched, and whether the walk was searched to its end. */
  progress?: { lastRel: string | null; isDone: boolean };
  /** Entries the caller's page needs (lines in content mode, else files): half of them found, the pool is not used. */
  pageEntries?: number;
}

type Candidate = { rel: string; path: string };

/**
 * Whether a JS search `spentMs` in hands the rest of its reading to the pool: past `poolAfterMs`, with workers that
 * have answered (a cold pool never holds a search up), and unless half of the caller's page is found already (the
 * pool's batches of files would only hold a nearly full page up).
 */
export function handsToPool(
  spentMs: number,
  poolAfterMs: number,
  isReady: boolean,
  found: number,
  pageEntries: number | undefined,
): boolean {
  const isPageNear = pageEntries !== undefined && 2 * found >= pageEntries;
  return spentMs >= poolAfterMs && isReady && !isPageNear;
}

export async function* jsEngine(
  root: string,
  isFile: boolean,
  q: GrepQuery,
  matcher: Matcher,
  signal: AbortSignal,
  options: JsEngineOptions = {},
): AsyncGenerator<FileMatches> {
  const wanted = q.glob ? globMatcher(q.glob) : null;
  const entries = isFile
    ? [
        {
          rel: root.slice(root.lastIndexOf('/') + 1),
          path: root,
          kind: 'file' as const,
          isBlocked: false,
          isSymlink: false,
        },
      ]
    : walk(root, { recursive: true, noFollow: true, ...(options.skip ? { skip: options.skip } : {}) });
  const candidates = (function* (): Generator<Candidate> {
    for (const entry of entries) {
      if (entry.kind !== 'file' || entry.isBlocked || entry.isSymlink) continue;
      if (wanted && !wanted(entry.rel)) continue;
      yield { rel: entry.rel, path: entry.path };
    }
  })();
  const reader = new SearchReader(options.guard ?? null);
  const context = q.mode === 'content' ? (q.context ?? 0) : 0;
  // A file whose lines reach the answer is confirmed on its descriptor (disk/search-reader.ts): read through a folder
  // swapped for a link, it is left out.
  const asked = { matcher, mode: q.mode, context, maxBytes: MAX_GREP_FILE_BYTES };
  const search = (c: Candidate): FileMatches | null => {
    const hit = fileHit(reader, c.path, asked);
    return hit ? { rel: c.rel, path: c.path, ...hit, confirmed: true } : null;
  };
  const started = Date.now();
  const poolAfter = options.poolAfterMs ?? POOL_AFTER_MS;
  if (options.pool?.usesWorkers && !isFile && poolAfter <= 0) {
    const page = { entries: options.pageEntries, found: 0, searched: 0 };
    yield* pooled(candidates, q, search, signal, options.pool, options.guard ?? null, page);
    return;
  }
  let last = started;
  let found = 0;
  let searched = 0;
  const progress = options.progress;
  for (let next = candidates.next(); !next.done; next = candidates.next()) {
    const hit = search(next.value);
    searched++;
    if (progress) progress.lastRel = next.value.rel;
    if (hit) {
      found += q.mode === 'content' ? hit.matches.length : 1;
      yield hit;
    }
    if (options.until?.()) return;
    if (Date.now() - last > YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      signal.throwIfAborted();
      last = Date.now();
      // Still searching: a big tree with few hits. The pool reads and matches the rest, in the walk's order.
      const pool = options.pool;
      if (pool?.usesWorkers && !isFile && last - started >= POOL_WARM_MS) {
        pool.warm();
        if (handsToPool(last - started, poolAfter, pool.isReady, found, options.pageEntries)) {
          const page = { entries: options.pageEntries, found, searched };
          yield* pooled(candidates, q, search, signal, pool, options.guard ?? null, page);
          return;
        }
      }
    }
  }
  if (progress) progress.isDone = true;
}

/**
 * The rest of the walk, read, matched and confirmed by the pool's workers (grep-file-hits.ts, as `search` does here);
 * a file is searched here only when no worker could, or when its context lines need the text the worker decoded.
 * `page`: the entries the caller's page needs, and those found in the files searched before (`filesAhead`).
 */
async function* pooled(
  candidates: Generator<Candidate>,
  q: GrepQuery,
  search: (c: Candidate) => FileMatches | null,
  signal: AbortSignal,
  pool: GrepPool,
  guard: GuardScope | null,
  page: { entries: number | undefined; found: number; searched: number },
): AsyncGenerator<FileMatches> {
  let { found, searched } = page;
  let inFlight = 0; // files sent and not yet answered
  const queue: { files: Candidate[]; answer: Promise<PoolAnswer | null> }[] = [];
  // Set when this search ends (its page is full, or it was stopped): the workers drop the rest of its jobs, which
  // would otherwise hold up the next search's jobs behind them.
  const cancel = new Int32Array(new SharedArrayBuffer(4));
  let chunk = POOL_FIRST_CHUNK;
  let isWalkDone = false;
  const fill = () => {
    while (!isWalkDone && queue.length < POOL_AHEAD) {
      // One job is always in hand (a page whose hits so far mislead still goes on, and the room grows as it reads).
      const room = filesAhead(page.entries, found, searched) - inFlight;
      if (queue.length > 0 && room < POOL_FIRST_CHUNK) return;
      const files: Candidate[] = [];
      const size = Math.max(POOL_FIRST_CHUNK, Math.min(chunk, room));
      chunk = Math.min(POOL_CHUNK, chunk * 2);
      while (files.length < size) {
        const next = candidates.next();
        if (next.done) {
          isWalkDone = true;
          break;
        }
        files.push(next.value);
      }
      if (files.length === 0) continue;
      inFlight += files.length;
      const answer = pool.filter({
        paths: files.map((f) => f.path),
        pattern: q.pattern,
        caseInsensitive: q.caseInsensitive,
        maxBytes: MAX_GREP_FILE_BYTES,
        context: q.mode === 'content' ? (q.context ?? 0) : 0,
        mode: q.mode,
        guard,
        cancel,
      });
      // A refused pattern rejects every batch in flight; the first is thrown below, the others must not go unhandled.
      answer.catch(() => undefined);
      queue.push({ files, answer });
    }
  };
  try {
    fill();
    while (queue.length > 0) {
      const { files, answer: pending } = queue.shift()!;
      fill();
      const answer = await pending;
      signal.throwIfAborted();
      inFlight -= files.length;
      searched += files.length;
      let k = 0; // the next of the answer's hits
      for (let i = 0; i < files.length; i++) {
        const kind = answer ? answer.hits[i] : SEARCH_HERE; // no worker could say: search every file here
        if (kind === FOUND) {
          const { rel, path } = files[i]!;
          const { link, ...hit } = answer!.found[k++]!;
          // A file with other names, read and confirmed by the worker: its descriptor's identity is judged here.
          if (link && isGuardedIdentity(link, guard)) continue;
          found += q.mode === 'content' ? hit.matches.length : 1;
          yield { rel, path, ...hit, confirmed: true };
        } else if (kind === SEARCH_HERE) {
          const hit = search(files[i]!);
          if (!hit) continue;
          found += q.mode === 'content' ? hit.matches.length : 1;
          yield hit;
        }
      }
    }
  } finally {
    Atomics.store(cancel, 0, 1);
  }
}

/** The first ripgrep binary among the candidates, or null. */
export function findRipgrep(candidates: readonly (string | undefined | null)[]): string | null {
  for (const c of candidates) if (c && kindAt(c) === 'file') return c;
  return null;
}

/**
 * A page of grep_files from ripgrep in the walk's order (docs/architecture.md "Tools"): rg searches the walk's
 * entries batch by batch until the page is full, each batch read in the walk's order and stopped as soon as the page
 * is known (grep-rg-ordered.ts: two rg processes of one thread each, dealt the batch's chunks in turn); so a page that
 * lies in the walk's first part costs what rg needs for that part, not its whole run (rg's own parallel order is not
 * the walk's: one run over the tree gives a page only once it has read everything).
 * - A batch is a run of the walk's entries ("units"): files, and folders two levels below the root or deeper, which
 *   rg walks itself (their files are then searched as walked files, with the same binary rule as the tree's one
 *   run). The root's folders, and a folder holding the file the search starts after, are opened into their entries.
 * - Sizes, in units where a folder weighs FOLDER_UNITS and a file one: the first batch is what the caller's JS search
 *   says the page needs (at least FIRST_UNITS; FIRST_UNITS when the caller cannot say); each next one is what the hits so far say the rest of the page needs
 *   (NEEDED_SLACK times as much), at most GROWTH times the last, or GROWTH times the last while there are none. A
 *   batch too big costs its listing only: rg stops where the page ends (the batches of one parallel rg were read
 *   whole, so they were kept to what rg read in 40 ms, and a page took many processes).
 * - Named files are searched whatever they are (rg's `--max-filesize` and its globs apply to walked files only): a
 *   file is named only when it passes the glob and may be shown (`accept`), and its hits count only when it is under
 *   MAX_GREP_FILE_BYTES (its size is asked for its hits alone: a second stat for each file named cost a page of
 *   node_modules a fifth of its time). Hits inside a folder are filtered by `accept`.
 * Returns null when the JS engine must answer instead (rg refused the pattern, or a name holds a line break).
 */
import { sizeAt, SKIP_DIRS, walk } from '../_policy/fs';
import { compareParts, MAX_GREP_FILE_BYTES, type FileMatches, type GrepQuery } from './grep-engines';
import { asMatches, baseArgs, type Collected, type RipgrepWant } from './grep-rg-run';
import { CHUNK_UNITS, searchOrdered } from './grep-rg-ordered';
import { globMatcher } from './grep-glob';

/** Units in the first batch at least; each next batch is at most GROWTH times the last, and at most MAX_UNITS. */
export const FIRST_UNITS = 256;
/** What a folder given whole weighs against a file (a folder two levels down holds a few dozen files or more). */
export const FOLDER_UNITS = 8;
const GROWTH = 4;
export const MAX_UNITS = 4096;
/** A next batch holds this many times what the hits so far say the rest of the page needs. */
const NEEDED_SLACK = 3;
/** How deep a folder must lie to be given to rg whole (the root's own folders are opened). */
const UNIT_DEPTH = 2;

interface Unit {
  rel: string;
  isDir: boolean;
}

/** Where a folder's subtree lies against a file of the walk: before it, holding it, or after it. */
function subtreeVersus(dirRel: string, file: string): 'before' | 'holds' | 'after' {
  if (file.startsWith(`${dirRel}/`)) return 'holds';
  // Any path inside the folder compares with `file` as the folder does.
  return compareParts([...dirRel.split('/'), '\0'], file.split('/')) < 0 ? 'before' : 'after';
}

/** The walk's units after `after` (null: from the start), in the walk's order: a folder's files, then its folders. */
function* units(
  root: string,
  dirRel: string,
  depth: number,
  after: string | null,
  skip: ((path: string) => boolean) | undefined,
): Generator<Unit> {
  const files: string[] = [];
  const dirs: string[] = [];
  for (const e of walk(dirRel === '' ? root : `${root}/${dirRel}`, { recursive: false, noFollow: true, skip })) {
    const rel = dirRel === '' ? e.rel : `${dirRel}/${e.rel}`;
    if (e.kind === 'file' && !e.isSymlink) files.push(rel);
    else if (e.kind === 'dir' && !e.isBlocked && !e.isSymlink && !SKIP_DIRS.has(e.rel.toLowerCase())) dirs.push(rel);
  }
  for (const rel of files)
    if (after === null || compareParts(rel.split('/'), after.split('/')) > 0) yield { rel, isDir: false };
  for (const rel of dirs) {
    const where = after === null ? 'after' : subtreeVersus(rel, after);
    if (where === 'before') continue;
    if (where === 'after' && depth + 1 >= UNIT_DEPTH) {
      yield { rel, isDir: true };
    } else yield* units(root, rel, depth + 1, where === 'holds' ? after : null, skip);
  }
}

/**
 * The next batch's size from the hits so far: what the rest of the page needs by their rate, NEEDED_SLACK times as
 * much, at most GROWTH times the last.
 */
export function nextBatchUnits(last: number, unitsDone: number, found: number, entries: number): number {
  const needed = found > 0 ? Math.ceil(((entries - found) * unitsDone * NEEDED_SLACK) / found) : MAX_UNITS;
  return Math.max(1, Math.min(MAX_UNITS, last * GROWTH, needed));
}

/**
 * Batches that stopped before the page was full (`giveUp`): their hits, and whether a file lies after what they
 * searched (the rest of the walk is then the caller's to search).
 */
export interface BatchesSoFar {
  hits: FileMatches[];
  isAfterSearched: (rel: string) => boolean;
}

/** How far the batches have come, for a caller that may rather search the rest of the walk in one run. */
export interface BatchProgress {
  found: number;
  ms: number;
}

/** Batches that have run this long with under a quarter of the page leave the rest of the walk to one rg run… */
export const BATCHES_GIVE_UP_MS = 200;

/** Whether batches give up so (BATCHES_GIVE_UP_MS), for a page that still needed `left` entries when they started. */
export function batchesGiveUp({ found, ms }: BatchProgress, left: number): boolean {
  return ms > BATCHES_GIVE_UP_MS && 4 * found < left;
}

/**
 * The page (the walk's hits after `after`), searched by rg batch by batch in the walk's order until it is full; or,
 * when `giveUp` says so after a batch, what they found so far (`BatchesSoFar`). `firstUnits`: the first batch's size
 * by the caller's count of what the page needs. Each file is handed to `want.inOrder` as soon as it is the page's.
 * `beforeNext`: awaited before each batch after the first, given the entries found so far (the caller holds the batches
 * back until it knows they are wanted); the time it takes is not the batches' own for `giveUp`.
 */
export async function inOrderBatches(
  rgPath: string,
  root: string,
  q: GrepQuery,
  signal: AbortSignal,
  want: RipgrepWant,
  base: readonly string[],
  after: string | null,
  pathOf: (rel: string) => string,
  giveUp?: (progress: BatchProgress) => boolean,
  firstUnits = FIRST_UNITS,
  beforeNext?: (found: number) => Promise<void>,
): Promise<FileMatches[] | BatchesSoFar | null> {
  const wanted = q.glob ? globMatcher(q.glob) : null;
  const accepted = (rel: string) => !want.accept || want.accept(pathOf(rel));
  const walkUnits = units(root, '', 0, after, want.skip);
  const out: FileMatches[] = [];
  let found = 0; // entries: lines in content mode, files otherwise
  let size = Math.min(MAX_UNITS, Math.max(1, firstUnits));
  let unitsDone = 0;
  let isWalkDone = false;
  let began = performance.now();
  let last: Unit | null = null; // the last unit searched
  while (!isWalkDone && found < want.entries) {
    if (last && beforeNext) {
      await beforeNext(found);
      signal.throwIfAborted();
      began = performance.now();
    }
    if (last && giveUp?.({ found, ms: performance.now() - began })) {
      const { rel, isDir } = last;
      const isAfterSearched = (file: string) =>
        isDir ? subtreeVersus(rel, file) === 'before' : compareParts(file.split('/'), rel.split('/')) > 0;
      return { hits: out, isAfterSearched };
    }
    // The batch in chunks of about CHUNK_UNITS units, in the walk's order.
    const chunks: string[][] = [];
    const named = new Set<string>(); // the files given by name
    let chunkUnits = CHUNK_UNITS;
    let taken = 0;
    while (taken < size) {
      const next = walkUnits.next();
      if (next.done) {
        isWalkDone = true;
        break;
      }
      last = next.value;
      const { rel, isDir } = next.value;
      if (rel.includes('\n')) return null; // rg's lines would be torn (grep-ripgrep.ts): the JS engine answers
      const weight = isDir ? FOLDER_UNITS : 1;
      taken += weight;
      if (!isDir) {
        if ((wanted && !wanted(rel)) || !accepted(rel)) continue;
        named.add(rel);
      }
      if (chunkUnits >= CHUNK_UNITS) {
        chunks.push([]);
        chunkUnits = 0;
      }
      chunks.at(-1)!.push(`./${rel}`);
      chunkUnits += weight;
    }
    unitsDone += taken;
    if (chunks.length === 0) continue;
    signal.throwIfAborted();
    const take = (rel: string, f: Collected) => {
      if (!accepted(rel)) return 0;
      if (named.has(rel)) {
        const bytes = sizeAt(pathOf(rel));
        if (bytes === null || bytes > MAX_GREP_FILE_BYTES) return 0;
      }
      const hit = asMatches(rel, f, q, pathOf);
      out.push(hit);
      want.inOrder?.(hit);
      const entries = q.mode === 'content' ? f.matches.length : 1;
      found += entries;
      return entries;
    };
    if (!(await searchOrdered(rgPath, root, q, signal, want.entries - found, base, chunks, take))) return null;
    size = nextBatchUnits(size, unitsDone, found, want.entries);
  }
  return out;
}

/** A page of the walk's hits after `after` (a file already searched; null: from the start), from rg in batches. */
export function ripgrepInOrder(
  rgPath: string,
  root: string,
  q: GrepQuery,
  signal: AbortSignal,
  want: RipgrepWant,
  after: string | null,
  giveUp?: (progress: BatchProgress) => boolean,
  firstUnits?: number,
): Promise<FileMatches[] | BatchesSoFar | null> {
  return inOrderBatches(
    rgPath,
    root,
    q,
    signal,
    want,
    baseArgs(q),
    after,
    (rel) => `${root}/${rel}`,
    giveUp,
    firstUnits,
  );
}

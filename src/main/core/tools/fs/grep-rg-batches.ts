/**
 * A page of grep_files from ripgrep in the walk's order (docs/architecture.md "Tools"): rg searches the walk's
 * entries batch by batch, each batch in parallel, until the page is full; so a page that lies in the walk's first
 * part costs what rg needs for that part, not its whole run (rg's own parallel order is not the walk's: one run over
 * the tree gives a page only once it has read everything).
 * - A batch is a run of the walk's entries ("units"): files, and folders two levels below the root or deeper, which
 *   rg walks itself (their files are then searched as walked files, with the same binary rule as the tree's one
 *   run). The root's folders, and a folder holding the file the search starts after, are opened into their entries.
 * - Sizes, in units where a folder weighs FOLDER_UNITS and a file one: the first batch is FIRST_UNITS; each next one is what the hits so far say the rest of the page needs (half
 *   again as much, at most GROWTH times the last), or GROWTH times the last while there are none; and no more than rg
 *   read in BATCH_MS at its pace so far: a batch is read whole even when the page ends in its first part (its files
 *   come back in no order until it ends), and one of a thousand folders of /usr/share took rg a second where the page
 *   needed a fifth of it.
 * - rg's threads take the entries it is given from the end of the list first (a stack: the last argument is searched
 *   first), so a batch is given in reverse: its first entries are read first.
 * - Named files are searched whatever they are, so a file is given only when it is a regular file under
 *   MAX_GREP_FILE_BYTES, passes the glob and may be shown (`accept`); hits inside a folder are filtered by `accept`.
 * Returns null when the JS engine must answer instead (rg refused the pattern, or a name holds a line break).
 */
import { sizeAt, SKIP_DIRS, walk } from '../_policy/fs';
import { compareParts, MAX_GREP_FILE_BYTES, type FileMatches, type GrepQuery } from './grep-engines';
import {
  addLineRecord,
  asMatches,
  baseArgs,
  type Collected,
  countLineArgs,
  inWalkOrder,
  lineArgs,
  noticePath,
  type RipgrepWant,
  runRg,
} from './grep-rg-run';
import { globMatcher } from './search-engine';

/** Units in the first batch; each next batch is at most GROWTH times the last, and at most MAX_UNITS. */
const FIRST_UNITS = 64;
/** What a folder given whole weighs against a file (a folder two levels down holds a few dozen files or more). */
const FOLDER_UNITS = 8;
const GROWTH = 4;
const MAX_UNITS = 4096;
/** A batch holds at most what rg read in this long at its pace so far (after the first two). */
export const BATCH_MS = 40;
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
    if (where === 'after' && depth + 1 >= UNIT_DEPTH) yield { rel, isDir: true };
    else yield* units(root, rel, depth + 1, where === 'holds' ? after : null, skip);
  }
}

/**
 * The next batch's size from the hits so far: what the rest of the page needs by their rate, half again as much, at
 * most GROWTH times the last and what rg reads in BATCH_MS at `unitsPerMs` (its pace so far; 0 while unknown).
 */
export function nextBatchUnits(
  last: number,
  unitsDone: number,
  found: number,
  entries: number,
  unitsPerMs: number,
): number {
  const paced = unitsPerMs > 0 ? Math.max(FIRST_UNITS, Math.floor(unitsPerMs * BATCH_MS)) : MAX_UNITS;
  const needed = found > 0 ? Math.ceil(((entries - found) * unitsDone * 1.5) / found) : MAX_UNITS;
  return Math.max(1, Math.min(MAX_UNITS, last * GROWTH, needed, paced));
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

/**
 * The page (the walk's hits after `after`), searched by rg batch by batch in the walk's order until it is full; or,
 * when `giveUp` says so after a batch, what they found so far (`BatchesSoFar`).
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
): Promise<FileMatches[] | BatchesSoFar | null> {
  const wanted = q.glob ? globMatcher(q.glob) : null;
  const accepted = (rel: string) => !want.accept || want.accept(pathOf(rel));
  const walkUnits = units(root, '', 0, after, want.skip);
  const out: FileMatches[] = [];
  let found = 0; // entries: lines in content mode, files otherwise
  let size = FIRST_UNITS;
  let unitsDone = 0;
  let isWalkDone = false;
  let batches = 0;
  let pace = { units: 0, ms: 0 }; // rg's reading after its first batch (which holds its start)
  const began = performance.now();
  let last: Unit | null = null; // the last unit searched
  while (!isWalkDone && found < want.entries) {
    if (last && giveUp?.({ found, ms: performance.now() - began })) {
      const { rel, isDir } = last;
      const isAfterSearched = (file: string) =>
        isDir ? subtreeVersus(rel, file) === 'before' : compareParts(file.split('/'), rel.split('/')) > 0;
      return { hits: out, isAfterSearched };
    }
    const batch: string[] = [];
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
      taken += isDir ? FOLDER_UNITS : 1;
      if (!isDir) {
        if ((wanted && !wanted(rel)) || !accepted(rel)) continue;
        const bytes = sizeAt(pathOf(rel));
        if (bytes === null || bytes > MAX_GREP_FILE_BYTES) continue;
      }
      batch.push(`./${rel}`);
    }
    unitsDone += taken;
    if (batch.length > 0) {
      signal.throwIfAborted();
      const started = performance.now();
      const got = await searchBatch(rgPath, root, q, signal, want.entries - found, base, batch.reverse());
      if (got === null) return null;
      if (++batches > 1) pace = { units: pace.units + taken, ms: pace.ms + performance.now() - started };
      for (const [rel, f] of inWalkOrder(got)) {
        if (found >= want.entries) break;
        if (!accepted(rel)) continue;
        out.push(asMatches(rel, f, q, pathOf));
        found += q.mode === 'content' ? f.matches.length : 1;
      }
    }
    size = nextBatchUnits(size, unitsDone, found, want.entries, pace.ms > 0 ? pace.units / pace.ms : 0);
  }
  return out;
}

/**
 * One batch: rg over the given entries, read by lines (`-l` and `-c` would take a named file whole), each file's
 * hits by path; a file rg stopped at a NUL in is left out of a count. Null when rg refused the pattern or printed a
 * torn line (a name with a line break inside a folder).
 */
async function searchBatch(
  rgPath: string,
  root: string,
  q: GrepQuery,
  signal: AbortSignal,
  perFile: number,
  base: readonly string[],
  batch: readonly string[],
): Promise<Map<string, Collected> | null> {
  const lines = q.mode === 'content' ? lineArgs(perFile, q.context) : countLineArgs(q.mode);
  const got = new Map<string, Collected>();
  const noticed = new Set<string>();
  const relOf = (p: string) => (p.startsWith('./') ? p.slice(2) : p);
  const named = new Set(batch); // a named file's notice may come alone (rg found its NUL before printing a line)
  let lastPrinted: string | null = null;
  let torn = false;
  const outcome = await runRg(
    rgPath,
    [...base, ...lines, '--regexp', q.pattern, '--', ...batch],
    root,
    signal,
    '\n',
    (record) => {
      const cut = record.indexOf('\0');
      if (cut !== -1) {
        if (!record.startsWith('./')) return !(torn = true);
        lastPrinted = record.slice(0, cut);
        addLineRecord(record, got, relOf);
        return true;
      }
      if (record === '--') return true;
      // A notice about a named file, or right after a walked file's own lines (rg writes a file's output at once; a torn
      // line's first part cannot name a file given here: those are never inside a folder given here); else torn.
      const about = noticePath(record);
      if (about === null || (about !== lastPrinted && !named.has(about))) return !(torn = true);
      noticed.add(relOf(about));
      return true;
    },
  );
  if (outcome.kind === 'unusable' || torn) return null;
  if (q.mode === 'count') for (const rel of noticed) got.delete(rel); // rg counts no file it stopped at a NUL in
  return got;
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
): Promise<FileMatches[] | BatchesSoFar | null> {
  return inOrderBatches(rgPath, root, q, signal, want, baseArgs(q), after, (rel) => `${root}/${rel}`, giveUp);
}

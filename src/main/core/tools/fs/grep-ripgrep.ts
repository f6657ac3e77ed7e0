/**
 * The ripgrep engine of `grep_files`: one `rg` process searches the tree in parallel, as `rg` on the command line
 * does (the flags and the reading of its output: grep-rg-run.ts). Its output is read as a stream, and rg is stopped as
 * soon as more is not needed:
 * - While the stream stays small (fewer than SWITCH_FACTOR × the entries the page needs, and under
 *   STREAM_BUDGET_BYTES of content), it is read to the end and sorted into the walk's order: that is the answer.
 * - Past that (and once the stream is RACE_AFTER_MS old), the answer is a cut page of a common pattern, and the
 *   in-order batches (grep-rg-batches.ts) start beside the stream. The first way to finish gives the answer, and the
 *   other is stopped: on a small tree the stream ends first, on a big one a page of a common word costs a few files,
 *   not a full run. Which way wins depends on timing; the answer does not (both are the walk's first entries).
 * A page the race knows to be a page goes to the batches at once (grep-race.ts); this stream is for whole answers, and
 * for a page the race took for a rare pattern's (`want.batchesAtCut`): once it has shown a page of hits, it is stopped
 * and the batches make the page alone (they stop where the page ends; beside the stream, four threads shared two
 * cores).
 * Files come back in the walk's order (compareRel) with their matching lines, filtered by `accept` before they count
 * towards the page (guarded hard links, protected subtrees), so a page is never short because of what was left out.
 * ripgrep's binary rule holds (grep-binary.ts): the lines before a late NUL, then a notice (`path: … binary file …`),
 * which is not a line; a file with one is left out of a count. A named file (`isFile`) is read by lines in every mode,
 * as the batches read theirs: rg's `-c` and `-l` take a named file whole, past a NUL.
 * Returns null when the caller should use the JS engine (rg cannot start, or refuses the pattern: look-around and
 * back-references are not in Rust's regex syntax; or a path holds a line break, which tears rg's lines).
 */
import { compareRel, type FileMatches, type GrepQuery } from './grep-engines';
import { batchesGiveUp, FIRST_UNITS, inOrderBatches } from './grep-rg-batches';
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

export type { RipgrepWant } from './grep-rg-run';

/** Content output read in one stream before a cut page switches to "walk in order, search batch by batch". */
export const STREAM_BUDGET_BYTES = 1024 * 1024;
/** Entries seen in the stream, as a multiple of what the page needs, before it switches the same way. */
const SWITCH_FACTOR = 4;
/** A cut page's stream younger than this runs alone: on a small tree it ends first, and a second rg only competes. */
const RACE_AFTER_MS = 40;
/** Content output past this stops the stream at once, whoever would have finished first (memory). */
const HARD_STREAM_BYTES = 16 * 1024 * 1024;

export async function ripgrepEngine(
  rgPath: string,
  root: string,
  isFile: boolean,
  q: GrepQuery,
  signal: AbortSignal,
  want: RipgrepWant,
  searchedUpTo: () => string | null = () => null,
): Promise<FileMatches[] | null> {
  const base = baseArgs(q);
  const target = isFile ? root : '.';
  const cwd = isFile ? undefined : root;
  const fileName = root.slice(root.lastIndexOf('/') + 1);
  const relOf = (printed: string) => (isFile ? fileName : printed.startsWith('./') ? printed.slice(2) : printed);
  const pathOf = (rel: string) => (isFile ? root : `${root}/${rel}`);
  const accepted = (rel: string) => !want.accept || want.accept(pathOf(rel));
  const pattern = ['--regexp', q.pattern];
  const budget = want.streamBudgetBytes ?? STREAM_BUDGET_BYTES;
  const isCut = (seen: number, bytes: number) =>
    !isFile &&
    (seen >= (want.batchesAtCut ? 1 : SWITCH_FACTOR) * want.entries || (seen >= want.entries && bytes > budget));
  // The batches start after the files the caller's JS search has read (a page's JS search may have read a fifth of
  // the walk before this stream started: read again batch by batch, that part cost a page of `-i todo` on /usr/include
  // more than rg's whole run).
  const batches = (s: AbortSignal) =>
    inOrderBatches(rgPath, root, q, s, want, base, searchedUpTo(), pathOf).then((r) =>
      r === null || Array.isArray(r) ? r : r.hits,
    );

  // One parallel stream. Once it is clearly a cut page, the in-order batches start beside it and the first to
  // finish gives the answer: on a small tree the stream, on a big one the batches (then rg is stopped).
  const byFile = new Map<string, Collected>();
  let seen = 0;
  const started = performance.now();
  const stream: { stop?: () => void } = {};
  const raceAbort = new AbortController();
  // Set inside the stream's callback, so kept in an object (a plain `let` would be narrowed to null below).
  const race: { answer: Promise<FileMatches[] | null> | null } = { answer: null };
  let raceWon = false;
  // rg's lines are split at line breaks, so a path holding one tears its line: `./notes\nREADME.md\0 1:text` would
  // read as a hit in README.md. Every path rg prints here starts with the target ('./' or the file), and a line of
  // its own is only the `--` between hunks or a binary notice right after the lines of the file it names (rg writes
  // each file's output at once): anything else is a torn line, and then the JS engine answers (docs/tools.md "Names
  // in results").
  const pathStart = isFile ? `${target}\0` : './';
  let lastPrinted: string | null = null; // the path of the last line read
  const noticed = new Set<string>(); // files rg stopped reading at a NUL (their lines are a part)
  const isTorn = (record: string) => {
    const cut = record.indexOf('\0');
    if (cut !== -1) {
      lastPrinted = record.slice(0, cut);
      return !record.startsWith(pathStart);
    }
    if (record === '--') return false;
    const about = noticePath(record);
    // A named file's notice may come alone (rg met its NUL before printing a line of it).
    if (about === null || (about !== lastPrinted && !(isFile && about === target))) return true;
    noticed.add(relOf(about));
    return false;
  };
  let torn = false;
  // A whole answer's files are handed to `want.early` as rg finishes each (its lines come at once, and the next line
  // names another file), so they are confirmed while rg reads on; a file whose lines come again is taken back.
  let fileOfLast: string | null = null; // the file of the line before the one being read
  const handedEarly = new Set<string>();
  const fileChanged = () => {
    const early = want.early!;
    if (fileOfLast !== null && handedEarly.size < want.entries) {
      const rel = relOf(fileOfLast);
      const f = byFile.get(rel);
      if (f && !handedEarly.has(rel)) {
        handedEarly.add(rel);
        early.done(asMatches(rel, f, q, pathOf));
      }
    }
    fileOfLast = lastPrinted;
    if (lastPrinted !== null && handedEarly.has(relOf(lastPrinted))) early.reopened(pathOf(relOf(lastPrinted)));
  };
  // A named file (isFile) is read by lines in every mode: its `-l` and `-c` would take it whole, past a late NUL.
  const byLines = q.mode === 'content' || isFile;
  const modeArgs =
    q.mode === 'content'
      ? lineArgs(want.entries, q.context)
      : isFile
        ? countLineArgs(q.mode)
        : q.mode === 'files'
          ? ['--files-with-matches']
          : ['--count'];
  const streamed = await runRg(
    rgPath,
    [...base, ...modeArgs, ...pattern, '--', target],
    cwd,
    signal,
    byLines || q.mode === 'count' ? '\n' : '\0',
    (record, bytes) => {
      if ((byLines || q.mode === 'count') && isTorn(record)) {
        torn = true;
        return false;
      }
      if (byLines) {
        if (q.mode === 'content' && want.early && lastPrinted !== fileOfLast) fileChanged();
        if (addLineRecord(record, byFile, relOf)) seen++;
      } else {
        const cut = q.mode === 'files' ? -1 : record.indexOf('\0');
        const rel = relOf((cut === -1 ? record : record.slice(0, cut)).replace(/^\n/, ''));
        if (rel)
          byFile.set(rel, {
            matches: [],
            texts: [],
            offsets: new Map(),
            count: cut === -1 ? 1 : Number(record.slice(cut + 1)),
          });
        seen++;
      }
      if (!isCut(seen, bytes)) return true;
      if (budget === 0 || bytes > HARD_STREAM_BYTES) return false; // forced (tests), or too much to keep: stop now
      if (want.batchesAtCut) return false; // a page: the in-order batches make it, alone
      if (!race.answer && performance.now() - started >= RACE_AFTER_MS) {
        race.answer = batches(AbortSignal.any([signal, raceAbort.signal])).then((answer) => {
          raceWon = answer !== null;
          if (raceWon) stream.stop?.();
          return answer;
        });
        race.answer.catch(() => null); // called off or stopped: never an unhandled rejection
      }
      return true;
    },
    stream,
  );
  if (streamed.kind === 'unusable') return null;
  if (torn) {
    raceAbort.abort();
    await race.answer?.catch(() => null);
    return null;
  }
  if (streamed.kind === 'stopped') return race.answer ?? (want.atCut ? want.atCut() : batches(signal));
  // The stream finished first: its answer stands, the batches are called off.
  if (race.answer && !raceWon) {
    raceAbort.abort();
    await race.answer.catch(() => null);
  }
  const out: FileMatches[] = [];
  const upTo = searchedUpTo();
  for (const [rel, f] of inWalkOrder(byFile)) {
    if (upTo !== null && compareRel(rel, upTo) <= 0) continue; // the caller's JS search has it
    if (q.mode === 'count' && noticed.has(rel)) continue; // rg counts no file it stopped at a NUL in
    if (q.mode !== 'content' && out.length >= want.entries) break;
    if (q.mode === 'content' || accepted(rel)) out.push(asMatches(rel, f, q, pathOf));
  }
  return out;
}

/**
 * The first batch beside the stream having found this many times fewer entries than the page needs (or more), the
 * batches go on alone and the stream is stopped: their rate says the page lies within that many batches like it.
 */
const NEAR_PAGE_BATCHES = 4;

/**
 * A page whose end the caller could not place (its JS search found too few hits to say): rg's one run over the tree
 * (`batchesAtCut`: it answers a rare pattern, and stops once it has shown a page of hits), and beside it the first
 * in-order batch after `after` (`firstUnits`), which answers a page that lies near. The batches go on past the first only
 * once the stream has shown a page of hits, or the first batch's hits say the page lies near (NEAR_PAGE_BATCHES); the
 * first to have the answer gives it, and the other is stopped. Run one
 * after the other, a mid word's page of node_modules cost the stream's time to its cut (about rg's run to its 101st hit)
 * and then the batch that held the page. Returns null where the JS engine must answer (as `ripgrepEngine`).
 */
export async function streamBesideFirstBatch(
  rgPath: string,
  root: string,
  q: GrepQuery,
  signal: AbortSignal,
  want: RipgrepWant,
  left: number,
  after: string | null,
  firstUnits = FIRST_UNITS,
): Promise<FileMatches[] | null> {
  const stopBatches = new AbortController();
  const stopStream = new AbortController();
  let goOn!: () => void;
  const gate = new Promise<void>((resolve) => (goOn = resolve));
  const batchesSignal = AbortSignal.any([signal, stopBatches.signal]);
  let isStreamCalledOff = false;
  // The first batch's hits put the page's end within NEAR_PAGE_BATCHES batches like it: the stream is not needed.
  const afterFirst = (found: number) => {
    if (found > 0 && left <= NEAR_PAGE_BATCHES * found) {
      isStreamCalledOff = true;
      stopStream.abort();
      return Promise.resolve();
    }
    return gate;
  };
  // The stream first: it answers a rare pattern (its whole run is the answer's time), and the first batch's listing
  // (a stat per file named) is then done while rg reads.
  const streamRun = ripgrepEngine(
    rgPath,
    root,
    false,
    q,
    AbortSignal.any([signal, stopStream.signal]),
    { ...want, batchesAtCut: true, atCut: () => atCut() },
    () => after,
  );
  streamRun.catch(() => undefined);
  const batchRun = inOrderBatches(
    rgPath,
    root,
    q,
    batchesSignal,
    { ...want, entries: left },
    baseArgs(q),
    after,
    (rel) => `${root}/${rel}`,
    // Alone, they give up as the page's batches do (grep-race.ts): hits that came only at the walk's start would
    // otherwise send them batch by batch through the whole walk. rg's one run then gives the rest.
    (progress) => isStreamCalledOff && batchesGiveUp(progress, left),
    firstUnits,
    afterFirst,
  ).then(async (r) => {
    if (r === null || Array.isArray(r)) return r;
    const rest = await ripgrepEngine(
      rgPath,
      root,
      false,
      q,
      batchesSignal,
      { ...want, batchesAtCut: true },
      () => after,
    );
    return rest && [...r.hits, ...rest.filter((hit) => r.isAfterSearched(hit.rel))];
  });
  batchRun.catch(() => undefined); // stopped: never an unhandled rejection
  const atCut = () => {
    goOn();
    return batchRun;
  };
  const first = await Promise.race([
    batchRun.then(
      (hits) => ({ by: 'batches' as const, hits }),
      () => ({ by: 'failed batches' as const }),
    ),
    streamRun.then(
      (hits) => ({ by: 'stream' as const, hits }),
      (error: unknown) => {
        if (isStreamCalledOff && !signal.aborted) return new Promise<never>(() => undefined); // the batches answer
        throw error;
      },
    ),
  ]);
  if (first.by === 'batches') {
    // The first batch held the page (or the rest of the walk): the stream is not needed.
    stopStream.abort();
    await streamRun.catch(() => null);
    return first.hits;
  }
  if (first.by === 'failed batches') return streamRun; // stopped by the caller: the stream says so too
  // The stream answered: it ended (a rare pattern), or it reached its cut and the batches answered through it.
  stopBatches.abort();
  goOn();
  await batchRun.catch(() => null);
  return first.hits;
}

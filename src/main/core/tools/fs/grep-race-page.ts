/**
 * A page of grep_files where ripgrep is found (grep-race.ts `engineResults` sends here an answer of at most
 * BATCHED_PAGE_ENTRIES entries): the JS search of the walk's first files, then rg over the walk after them, batch by
 * batch in the walk's order (grep-rg-batches.ts), or one rg run over the tree for a rare pattern's page
 * (docs/performance.md "Two engines, one answer").
 */
import { compareRel, jsEngine, type FileMatches, type GrepQuery, type JsEngineOptions } from './grep-engines';
import { bigTrees, JS_ALONE_MS, walkProgress } from './grep-prefix';
import { type BatchProgress, batchesGiveUp, FIRST_UNITS, ripgrepInOrder } from './grep-rg-batches';
import { ripgrepEngine, type RipgrepWant, streamBesideFirstBatch } from './grep-ripgrep';
import type { Matcher } from './search-engine';

/**
 * A page of at most this many entries is made in the walk's order: the JS search of the walk's first files, then rg
 * batch by batch over the entries after them (grep-rg-batches.ts), each batch read in parallel, until the page is
 * full. One rg run over the tree gives no page before it has read the whole tree (its threads' order is not the
 * walk's), which made a page of a word one line in 3,000 has cost more than rg's whole run (node_modules, `-i todo`:
 * 1.65× rg's whole run, 20× rg stopped at its 101st hit). A larger answer (a whole answer) takes the one run.
 */
export const BATCHED_PAGE_ENTRIES = 1000;
/**
 * …and the JS search of a page goes on alone while what it has left (to the page's end at its rate of hits so far, or
 * to the walk's end by its share of the walk) looks like taking at most this: the batches read about twice as fast
 * but cost a process each (a few milliseconds to start, more from a big process: Node spawns by fork()). A small
 * tree (the Python standard library) is searched alone; on it, batches of rg took 5 to 6 times as long.
 */
export const PAGE_JS_LEFT_MS = 50;
/**
 * …judged once it has read this many files: the first few say little (the standard library's 229 KB `_pydecimal.py`
 * comes tenth; judged after it, the page looked 120 ms away and was 20).
 */
export const PAGE_JS_JUDGED_AFTER_FILES = 64;
/**
 * A page whose end looks further into the walk than this share (by the JS search's hits and its share of the walk;
 * no hit at all: further than any) is a rare pattern's: it goes to rg's one run over the tree, since batches would
 * go through most of the walk a process at a time (on /usr/share, a regex with no hit took batches 21 s against rg's
 * 2.3 s run)…
 */
export const PAGE_BATCHES_SHARE = 0.5;
/**
 * The first batch of a page's rg search holds at most this many units (grep-rg-batches.ts): each file named costs a
 * stat before rg starts. On node_modules, `-i todo` (the JS search's 64 files said 4,752 units) took 71.7 ms with a
 * first batch of 4,096 units, 53.3 ms with 1,024 (rg stopped at its 101st hit 21.1 ms; medians of 11).
 */
export const PAGE_FIRST_UNITS_MAX = 1024;

/**
 * …and in a folder known to be big (`BigTrees`), a page with no hit yet goes on by its share of the walk only this
 * long: that share counts the first folder levels' entries alike, and on /usr/include, whose 167 small files come
 * before its 68 folders, a search deep in `c++/` or `llvm-14/` looked three quarters done at 100 ms (it had read a
 * third). A pattern with no hits there searched alone to JS_PREFIX_MS and then waited for rg's whole run: 192 ms
 * against rg's 96; with this bound at 25 ms, 97 ms against rg's 78 (a loaded machine). A page whose hits come,
 * however few, goes on as before: `-i todo` there finds its first hit after 5–12 ms (100–130 files; two loaded
 * cores), and its page alone at about rg's pace.
 */
export const PAGE_NO_HIT_MS = 15;

/**
 * Whether the JS search of a page goes on alone (checked after each file from JS_ALONE_MS on): PAGE_JS_LEFT_MS.
 * `walkShare` null: the walk's end is not looked at (PAGE_NO_HIT_MS), only the page's.
 */
export function pageGoesOn(spentMs: number, found: number, entries: number, walkShare: (() => number) | null): boolean {
  const toPage = found > 0 ? (spentMs * (entries - found)) / found : Number.POSITIVE_INFINITY;
  if (toPage <= PAGE_JS_LEFT_MS) return true;
  if (!walkShare) return false;
  const share = walkShare();
  return share > 0 && (spentMs * (1 - share)) / share <= PAGE_JS_LEFT_MS;
}

/**
 * A page (BATCHED_PAGE_ENTRIES at most): the JS search alone for JS_ALONE_MS (a page of a common pattern is full by
 * then), longer while it looks close to the page's or the walk's end (`pageGoesOn`: then rg is never started); then
 * rg over the walk's entries after the last file it read, batch by batch, with the JS thread idle (on two cores it
 * would take one from rg's two threads).
 */
export async function* pageInWalkOrder(
  rgPath: string,
  jsOptions: JsEngineOptions,
  root: string,
  q: GrepQuery,
  matcher: Matcher,
  signal: AbortSignal,
  want: RipgrepWant,
  prefix: { ms: number; files?: number },
): AsyncGenerator<FileMatches> {
  const started = performance.now();
  const { progress, share } = walkProgress(root, false);
  let searched = 0;
  let found = 0;
  let startedAsBig = false;
  const knownBig = bigTrees.has(root);
  const until = () => {
    const spent = performance.now() - started;
    searched++;
    if (prefix.files !== undefined && searched >= prefix.files) return true;
    if (spent < Math.min(JS_ALONE_MS, prefix.ms)) return false;
    if (spent < prefix.ms && searched < PAGE_JS_JUDGED_AFTER_FILES) return false;
    const isBlind = knownBig && found === 0 && spent >= PAGE_NO_HIT_MS;
    if (spent < prefix.ms && pageGoesOn(spent, found, want.entries, isBlind ? null : share)) return false;
    // The walk was not read within the prefix's time, however near its end it looked: a big folder.
    startedAsBig = true;
    return true;
  };
  const first: FileMatches[] = [];
  for await (const hit of jsEngine(root, false, q, matcher, signal, { ...jsOptions, pool: null, until, progress })) {
    first.push(hit);
    if (want.accept && !want.accept(hit.path, hit.confirmed)) continue;
    found += q.mode === 'content' ? hit.matches.length : 1;
    if (found >= want.entries) break;
  }
  bigTrees.learn(root, { walkDone: progress.isDone, startedAsBig });
  yield* first;
  if (found >= want.entries || progress.isDone) return;
  const afterJs = (rel: string) => progress.lastRel === null || compareRel(rel, progress.lastRel) > 0;
  const left = want.entries - found;
  let isAfter = afterJs;
  const pageShare = found > 0 ? (share() * want.entries) / found : Number.POSITIVE_INFINITY;
  if (pageShare <= PAGE_BATCHES_SHARE) {
    // The batches give only what lies after the JS search's last file, and only what the page still needs.
    const giveUp = (progress: BatchProgress) => batchesGiveUp(progress, left);
    // The first batch holds what the JS search's rate of hits says the page needs, half again as much, within
    // PAGE_FIRST_UNITS_MAX: rg stops once the page is full, so a batch too big costs its listing (a stat per file named).
    const needed = Math.ceil((left * searched * 1.5) / found);
    const firstUnits = Math.min(PAGE_FIRST_UNITS_MAX, Math.max(FIRST_UNITS, needed));
    const rest = await ripgrepInOrder(
      rgPath,
      root,
      q,
      signal,
      { ...want, entries: left },
      progress.lastRel,
      giveUp,
      firstUnits,
    );
    if (Array.isArray(rest)) {
      yield* rest;
      return;
    }
    if (rest) {
      yield* rest.hits;
      isAfter = rest.isAfterSearched;
    }
  }
  // A rare pattern: rg's one run over the tree gives the files after what was searched; beside it the first batch
  // after them, where the JS search found too few hits to place the page's end (a page that lies near).
  const hits =
    pageShare <= PAGE_BATCHES_SHARE
      ? await ripgrepEngine(rgPath, root, false, q, signal, { ...want, batchesAtCut: true }, () => progress.lastRel)
      : await streamBesideFirstBatch(rgPath, root, q, signal, want, left, progress.lastRel);
  if (hits) {
    for (const hit of hits) if (isAfter(hit.rel)) yield hit;
    return;
  }
  // rg refused the pattern (or a name tears its lines): the JS engine does the rest of the walk.
  for await (const hit of jsEngine(root, false, q, matcher, signal, jsOptions)) if (isAfter(hit.rel)) yield hit;
}

/**
 * How `grep_files` joins its two engines where ripgrep is found (docs/architecture.md "Tools"). The JS engine searches
 * the walk's first files on this thread (a small tree, all of it: rg is then never started); rg starts over the whole
 * tree beside it; whichever has the answer first gives it. Both give the walk's order, so the answer is the same whoever gives which part of it.
 * The cost to watch is the machine's cores: on two cores the JS search beside rg's two threads takes about a third
 * of the machine from rg, so it goes on only while it is likely to win (a common pattern's page, a small tree);
 * searching beside rg until rg answered cost a rare pattern's search 40–60 ms on a 70–300 ms run.
 */
import { compareRel, jsEngine, type FileMatches, type GrepQuery, type JsEngineOptions } from './grep-engines';
import { bigTrees, JS_ALONE_MS, walkProgress } from './grep-prefix';
import { BATCHED_PAGE_ENTRIES, pageInWalkOrder } from './grep-race-page';
import { ripgrepEngine, type RipgrepWant } from './grep-ripgrep';
import { compileMatcher } from './search-engine';

/**
 * …or this long where the same folder's last search found its walk too big to search alone (`BigTrees`): rg then
 * starts almost at once, and the JS search beside it goes on only while its hits would fill the page (not for
 * JS_BESIDE_MS whatever it finds: its thread took a core from rg's two). On the generated 100× tree (6,000 files) a
 * rare pattern's whole answer took 1.3–1.4× rg's own run with the 5 ms head start and the 15 ms beside, 1.16× this
 * way, 1.09× with rg alone (the tree searched 14 times in one process, medians).
 */
export const JS_ALONE_BIG_MS = 1;
/**
 * …and it goes on alone, rg not started at all, while the whole walk looks like taking at most JS_SOLO_MS at its pace
 * so far (a small tree: the Python standard library, a few hundred source files). Starting rg costs this thread a few
 * milliseconds (spawn is synchronous) and its two threads then compete with this one for a small machine's cores: on
 * such a tree the JS search alone answered in 0.6–0.9× of rg's own full run, the two side by side in 1.2–1.9×
 * (bench/tools-grep.ts, 2 loaded cores). Where the two cross: rg's run costs about 20 ms before it reads a byte and
 * then reads about 2.5× as fast as the JS search (the generated trees: 10× in 16 ms alone against rg's 23–35 ms, 100×
 * in 156 ms against rg's 80), so a walk of 30 ms alone is about rg's own run by that model, and one of 40 ms at most
 * 1.11× it. Spawned from the app's process, rg's run costs more than the model says: on the Python standard library,
 * whose whole walk the JS search reads in 24–31 ms, rg's own run took 40–55 ms (bench/tools-grep.ts). At 30 ms the
 * bound sat on that walk: the estimate at 5 ms crossed it in a quarter of the searches, rg started, and those took
 * 42–81 ms; at 40 ms, three of 80 (each the first timed search of its process). The estimate (`walkShare`) can be wrong
 * either way; a big tree taken for a small one costs at most JS_SOLO_MS before rg starts (the whole walk's estimate
 * is never below the time spent).
 */
export const JS_SOLO_MS = 40;
/** …how long it goes on beside rg whatever it finds… */
export const JS_BESIDE_MS = 15;
/**
 * …after that, while the rest of the walk looks like taking at most this: rg's own start costs 20–30 ms on an idle
 * machine, and on a loaded one a small tree's walk is slower than its start says (a tree the JS search reads in
 * 75 ms on an idle machine, where rg takes about 40, may cost rg's run a fifth more)…
 */
export const JS_WALK_MS = 60;
/** …or while it finds enough to fill the page within this; never longer, nor once rg has answered. */
export const JS_PREFIX_MS = 100;
/**
 * "Enough to fill the page" is judged at half the page: the first files' hits are a poor sample, and a machine under
 * load reads slower than its rate so far says; a search that stops finding hits stops soon all the same.
 */
const PAGE_SLACK = 2;

/**
 * Whether the JS search of the walk's first files goes on (checked after each file). Alone for JS_ALONE_MS (a page
 * of a common pattern is full by then, and no process is started); beside rg until `besideMs` (JS_BESIDE_MS, or
 * JS_ALONE_BIG_MS for a folder known to be big) whatever it finds; after that only while its rate so far would fill half the page within `prefixMs`, or while the share of the walk it has
 * read (`walkShare`, 0–1) says the rest of the walk takes at most JS_WALK_MS at the same pace. A rare pattern on a big tree stops it early: rg then
 * runs alone and the search costs rg's own run plus a few milliseconds. `walkShare` null (a folder known to be big):
 * only the hits are looked at. The share counts the first folder levels' entries alike: on /usr/include (its 167 small
 * files before its 68 folders) it said three quarters read when a third was, and the JS search went on beside rg to
 * `prefixMs`, taking a core from rg's two (56 ms of this thread in a rare word's whole answer there).
 */
export function prefixGoesOn(
  spentMs: number,
  found: number,
  entries: number,
  prefixMs: number,
  walkShare: (() => number) | null,
  besideMs = JS_BESIDE_MS,
): boolean {
  if (spentMs >= prefixMs) return false;
  if (spentMs < Math.min(besideMs, prefixMs)) return true;
  if (found * (prefixMs / spentMs) * PAGE_SLACK >= entries) return true;
  if (!walkShare) return false;
  const share = walkShare();
  return share > 0 && (spentMs * (1 - share)) / share <= JS_WALK_MS;
}

/**
 * Whether the JS search goes on alone, ripgrep not started yet (checked after each file from JS_ALONE_MS on): while
 * the whole walk (`walkShare`: 0–1 of it read so far) looks like taking at most JS_SOLO_MS at the same pace, and not
 * past the prefix's own bound.
 */
export function soloGoesOn(spentMs: number, prefixMs: number, walkShare: () => number): boolean {
  if (spentMs >= prefixMs) return false;
  const share = walkShare();
  return share > 0 && spentMs / share <= JS_SOLO_MS;
}

/**
 * The files with matches, in the walk's order. Without rg: the JS engine. With rg: the JS engine searches the walk's
 * first files, alone for JS_ALONE_MS (longer while `soloGoesOn`: a small tree; shorter, JS_ALONE_BIG_MS, for a
 * folder `BigTrees` knows), then beside rg (`grep-ripgrep.ts`) as `prefixGoesOn` says, or until rg answers.
 * If it completes the page (or the walk: a small tree) first, rg is stopped. Else rg's answer is taken for the files
 * after the last one the JS search read.
 */
export async function* engineResults(
  rgPath: string | null,
  js: JsEngineOptions,
  root: string,
  isFile: boolean,
  q: GrepQuery,
  signal: AbortSignal,
  want: RipgrepWant,
  skip: ((path: string) => boolean) | undefined,
  prefix: { ms: number; files?: number },
): AsyncGenerator<FileMatches> {
  const matcher = compileMatcher(q.pattern, q.caseInsensitive); // validates the pattern for both engines
  const jsOptions: JsEngineOptions = { ...js, ...(skip ? { skip } : {}), pageEntries: want.entries };
  if (!rgPath) {
    yield* jsEngine(root, isFile, q, matcher, signal, jsOptions);
    return;
  }
  if (prefix.ms <= 0) {
    const hits = await ripgrepEngine(rgPath, root, isFile, q, signal, want);
    yield* hits ?? jsEngine(root, isFile, q, matcher, signal, jsOptions);
    return;
  }
  if (!isFile && want.entries <= BATCHED_PAGE_ENTRIES) {
    yield* pageInWalkOrder(rgPath, jsOptions, root, q, matcher, signal, want, prefix);
    return;
  }
  const started = performance.now();
  const knownBig = !isFile && bigTrees.has(root);
  const aloneMs = Math.min(knownBig ? JS_ALONE_BIG_MS : JS_ALONE_MS, prefix.ms);
  let startedAsBig = false;
  const stopRg = new AbortController();
  let rgAnswer: Promise<FileMatches[] | null> | null = null;
  let rgHasAnswered = false;
  const startRg = () => {
    const searched = () => progress.lastRel;
    rgAnswer = ripgrepEngine(rgPath, root, isFile, q, AbortSignal.any([signal, stopRg.signal]), want, searched).then(
      (answer) => {
        rgHasAnswered = true;
        return answer;
      },
      (error: unknown) => {
        rgHasAnswered = true;
        if (stopRg.signal.aborted && !signal.aborted) return null; // stopped by us: its answer is not needed
        throw error;
      },
    );
  };
  const { progress, share } = walkProgress(root, isFile);
  let searched = 0;
  let found = 0;
  const until = () => {
    const spent = performance.now() - started;
    if (!rgAnswer && spent >= aloneMs && (knownBig || !soloGoesOn(spent, prefix.ms, share))) {
      startedAsBig = spent < prefix.ms; // the walk looked too long to search alone (not merely the prefix's end)
      startRg();
    }
    return (
      rgHasAnswered ||
      !prefixGoesOn(
        spent,
        found,
        want.entries,
        prefix.ms,
        knownBig ? null : share,
        knownBig ? aloneMs : JS_BESIDE_MS,
      ) ||
      (prefix.files !== undefined && ++searched >= prefix.files)
    );
  };
  const first: FileMatches[] = [];
  try {
    for await (const hit of jsEngine(root, isFile, q, matcher, signal, { ...jsOptions, pool: null, until, progress })) {
      first.push(hit);
      if (want.accept && !want.accept(hit.path, hit.confirmed)) continue;
      found += q.mode === 'content' ? hit.matches.length : 1;
      if (found >= want.entries) break;
    }
  } catch (error) {
    stopRg.abort();
    throw error;
  }
  bigTrees.learn(root, { walkDone: progress.isDone, startedAsBig });
  if (found >= want.entries || progress.isDone) {
    stopRg.abort(); // the JS search has the page (or the whole answer): rg's run is not needed
    yield* first;
    return;
  }
  if (!rgAnswer) startRg();
  const rest = await rgAnswer!;
  yield* first;
  const after = (rel: string) => progress.lastRel === null || compareRel(rel, progress.lastRel) > 0;
  if (rest) {
    for (const hit of rest) if (after(hit.rel)) yield hit;
    return;
  }
  // rg refused the pattern: the JS engine does the rest of the walk.
  for await (const hit of jsEngine(root, isFile, q, matcher, signal, jsOptions)) if (after(hit.rel)) yield hit;
}

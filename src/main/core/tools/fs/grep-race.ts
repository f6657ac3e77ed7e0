/**
 * How `grep_files` joins its two engines where ripgrep is found (docs/architecture.md "Tools"). The JS engine searches
 * the walk's first files on this thread (a small tree, all of it: rg is then never started); rg starts over the whole
 * tree beside it; whichever has the answer first gives it. Both give the walk's order, so the answer is the same whoever gives which part of it.
 * The cost to watch is the machine's cores: on two cores the JS search beside rg's two threads takes about a third
 * of the machine from rg, so it goes on only while it is likely to win (a common pattern's page, a small tree);
 * searching beside rg until rg answered cost a rare pattern's search 40–60 ms on a 70–300 ms run.
 */
import { SKIP_DIRS, walk } from '../_policy/fs';
import { compareRel, jsEngine, type FileMatches, type GrepQuery, type JsEngineOptions } from './grep-engines';
import { type BatchProgress, batchesGiveUp, FIRST_UNITS, ripgrepInOrder } from './grep-rg-batches';
import { ripgrepEngine, type RipgrepWant, streamBesideFirstBatch } from './grep-ripgrep';
import { compileMatcher, type Matcher } from './search-engine';

/**
 * How long the JS engine searches the walk's first files alone before ripgrep may be started beside it… The first
 * milliseconds' pace says little about the whole walk: they hold the search's setup and, in a tree whose files come
 * before its folders, the top folder's few big files (the Python standard library's `_pydecimal.py`, 229 KB, takes 2
 * of them). Judged at 3 ms, the stdlib's whole walk looked like 36–63 ms, judged at 5 ms like 19–30, so rg was
 * started in nearly every search. Starting it is not cheap: Node spawns by fork(), which copies the page tables of
 * this whole process, 6–9 ms of this thread at the app's 200 MB (16 ms at 800 MB), and rg's two threads then slow the
 * JS search beside them. In a process of 190 MB the page of `-i deprecated` there took 50 ms (median), rg's own run
 * 44; judged at 5 ms, 16 ms against 39. A big tree pays 2 ms more before rg starts (bench/tools-grep.ts).
 */
export const JS_ALONE_MS = 5;
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
 * The folders whose last search started rg because the JS search could not finish the walk alone within JS_SOLO_MS
 * (by real path, at most `kept`, the oldest forgotten first). A guess that picks only the way, never the answer: a
 * folder that has since shrunk is searched beside rg once, and forgotten when the JS search finishes its walk (the
 * next search then goes alone again).
 */
export class BigTrees {
  private readonly roots = new Set<string>();
  constructor(private readonly kept = 64) {}

  has(root: string): boolean {
    return this.roots.has(root);
  }

  /** After a search: `walkDone` the JS search read the whole walk; `startedAsBig` rg was started for the walk's size. */
  learn(root: string, seen: { walkDone: boolean; startedAsBig: boolean }): void {
    if (!seen.walkDone && !seen.startedAsBig) return; // a page found early says nothing of the size
    this.roots.delete(root);
    if (seen.walkDone) return;
    this.roots.add(root);
    if (this.roots.size > this.kept) this.roots.delete(this.roots.values().next().value!);
  }
}

const bigTrees = new BigTrees();

/**
 * Whether the JS search of the walk's first files goes on (checked after each file). Alone for JS_ALONE_MS (a page
 * of a common pattern is full by then, and no process is started); beside rg until `besideMs` (JS_BESIDE_MS, or
 * JS_ALONE_BIG_MS for a folder known to be big) whatever it finds; after that only while its rate so far would fill half the page within `prefixMs`, or while the share of the walk it has
 * read (`walkShare`, 0–1) says the rest of the walk takes at most JS_WALK_MS at the same pace. A rare pattern on a big tree stops it early: rg then
 * runs alone and the search costs rg's own run plus a few milliseconds.
 */
export function prefixGoesOn(
  spentMs: number,
  found: number,
  entries: number,
  prefixMs: number,
  walkShare: () => number,
  besideMs = JS_BESIDE_MS,
): boolean {
  if (spentMs >= prefixMs) return false;
  if (spentMs < Math.min(besideMs, prefixMs)) return true;
  if (found * (prefixMs / spentMs) * PAGE_SLACK >= entries) return true;
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

/** Whether the JS search of a page goes on alone (checked after each file from JS_ALONE_MS on): PAGE_JS_LEFT_MS. */
export function pageGoesOn(spentMs: number, found: number, entries: number, walkShare: () => number): boolean {
  const toPage = found > 0 ? (spentMs * (entries - found)) / found : Number.POSITIVE_INFINITY;
  if (toPage <= PAGE_JS_LEFT_MS) return true;
  const share = walkShare();
  return share > 0 && (spentMs * (1 - share)) / share <= PAGE_JS_LEFT_MS;
}

/**
 * A rough share (0–1) of the walk that lies before `rel` and `rel` itself, from the listings of the first two folder
 * levels on its path (`names(dir)`: a folder's entries in the walk's order, files first): each entry of a folder
 * counts alike. Cheap (a listing per folder, kept by the caller), and only needs to tell "nearly done" from "barely
 * begun".
 */
export function walkShare(rel: string, names: (dirRel: string) => readonly string[]): number {
  const parts = rel.split('/');
  let share = 0;
  let scale = 1;
  let dir = '';
  for (let depth = 0; depth < Math.min(parts.length, 2); depth++) {
    const list = names(dir);
    const at = list.indexOf(parts[depth]!);
    if (at === -1 || list.length === 0) break;
    const isLast = depth === parts.length - 1;
    share += (scale * (at + (isLast ? 1 : 0))) / list.length;
    scale /= list.length;
    if (isLast) return share;
    dir = dir === '' ? parts[depth]! : `${dir}/${parts[depth]}`;
  }
  return share + scale / 2; // somewhere inside the deepest folder counted
}

/**
 * A folder's entries as the walk searches them: its files, then the folders it enters, each by name. Only names, for
 * the estimate: a protected folder is counted like any other (asking `skip` here would note it twice as left out).
 */
function listing(root: string, dirRel: string): string[] {
  const files: string[] = [];
  const dirs: string[] = [];
  for (const e of walk(dirRel === '' ? root : `${root}/${dirRel}`, { recursive: false, noFollow: true })) {
    const name = e.rel;
    if (e.kind === 'file' && !e.isSymlink) files.push(name);
    else if (e.kind === 'dir' && !e.isBlocked && !SKIP_DIRS.has(name.toLowerCase())) dirs.push(name);
  }
  return [...files, ...dirs];
}

/**
 * Where a JS search of `root` has got to (`progress`, which it updates) and the rough share of the walk that is
 * (`share`, 0–1, by `walkShare` over the folders' listings, each read once): a named file is all of its walk.
 */
function walkProgress(root: string, isFile: boolean) {
  const progress = { lastRel: null as string | null, isDone: false };
  const listings = new Map<string, string[]>();
  const names = (dirRel: string) => {
    let list = listings.get(dirRel);
    if (!list) listings.set(dirRel, (list = listing(root, dirRel)));
    return list;
  };
  const share = () => (isFile ? 1 : progress.lastRel === null ? 0 : walkShare(progress.lastRel, names));
  return { progress, share };
}

/**
 * A page (BATCHED_PAGE_ENTRIES at most): the JS search alone for JS_ALONE_MS (a page of a common pattern is full by
 * then), longer while it looks close to the page's or the walk's end (`pageGoesOn`: then rg is never started); then
 * rg over the walk's entries after the last file it read, batch by batch, with the JS thread idle (on two cores it
 * would take one from rg's two threads).
 */
async function* pageInWalkOrder(
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
  const until = () => {
    const spent = performance.now() - started;
    searched++;
    if (prefix.files !== undefined && searched >= prefix.files) return true;
    if (spent < Math.min(JS_ALONE_MS, prefix.ms)) return false;
    if (spent < prefix.ms && searched < PAGE_JS_JUDGED_AFTER_FILES) return false;
    if (spent < prefix.ms && pageGoesOn(spent, found, want.entries, share)) return false;
    startedAsBig = spent < prefix.ms;
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
      !prefixGoesOn(spent, found, want.entries, prefix.ms, share, knownBig ? aloneMs : JS_BESIDE_MS) ||
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

/**
 * The JS search of the walk's first files, as grep_files' two ways with ripgrep use it (grep-race.ts for a whole
 * answer, grep-race-page.ts for a page): how long it goes on alone first, how much of the walk it has read (a rough
 * share, from the listings of the first folder levels), and which folders were found too big to search alone.
 */
import { SKIP_DIRS, walk } from '../_policy/fs';

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

export const bigTrees = new BigTrees();

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
export function walkProgress(root: string, isFile: boolean) {
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

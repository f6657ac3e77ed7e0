/**
 * Walking a folder tree for the tools' listings and searches (docs/tools.md, docs/guards.md "One disk policy"): it
 * lists names and never opens a file (the readers open what it yields through open.ts). Depth-first, name-sorted;
 * a directory symlink is followed only when its real path is inside the root, not in a `secrets` folder and not yet
 * visited (so loops end); anything else is yielded as blocked. `secrets` is never entered, nor (unless asked)
 * the heavy folders of SKIP_DIRS.
 */
import { lstatSync, readdirSync, realpathSync, statSync, unlinkSync, type Stats } from 'node:fs';
import { hasComponent, relativeInside } from './paths';
import { SECRETS_DIR } from './protected';

/**
 * Folders the recursive tools never descend into: VCS, dependency, build and virtualenv folders are noise; `secrets`
 * is the one that matters (docs/approval.md "Walks skip what is protected").
 */
export const SKIP_DIRS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  SECRETS_DIR,
  'target',
  '__pycache__',
  '.venv',
  '.hg',
  '.svn',
]);

export interface WalkEntry {
  /** `/`-separated, relative to the walk root. */
  rel: string;
  /** The real path to open (for a followed symlink, its target). */
  path: string;
  kind: 'file' | 'dir' | 'other';
  isSymlink: boolean;
  /** A symlink that leads outside the root, into secrets, into a loop, or nowhere: listed, never followed. */
  isBlocked: boolean;
  depth: number;
  /** A name that is not valid UTF-8: no path string opens it (see isUnopenableName); listed as kind 'other'. */
  isUnopenable?: true;
}

export interface WalkOptions {
  recursive: boolean;
  maxDepth?: number;
  /** Also descend into SKIP_DIRS other than `secrets` (which is always skipped). */
  includeSkipped?: boolean;
  /** Never resolve symlinks: yield them as blocked (grep_files, to match ripgrep's default). */
  noFollow?: boolean;
  /** Entries (by the path `walk` would open) to leave out entirely, a folder not entered: what the rules protect. */
  skip?: (path: string) => boolean;
}

const REPLACEMENT_CHAR = '\uFFFD';

/**
 * Whether a path names a file by a name that is not valid UTF-8 (docs/tools.md "Names in results"). Node reads such a
 * name with U+FFFD in place of each bad byte, and that string names no file, so nothing can open it: the walk lists
 * it as such and grep_files leaves it out of its answer. (A valid name may hold U+FFFD itself: then the file is there.)
 */
export function isUnopenableName(path: string): boolean {
  return path.includes(REPLACEMENT_CHAR) && lstatSync(path, { throwIfNoEntry: false }) === undefined;
}

/**
 * Depth-first, name-sorted. Directory symlinks are followed only when their real path is inside `root`, not in
 * a secrets folder and not already visited (so loops end); everything else is yielded as blocked.
 */
export function* walk(root: string, options: WalkOptions): Generator<WalkEntry> {
  const visited = new Set<string>([root]);
  const stack: { dir: string; rel: string; depth: number }[] = [{ dir: root, rel: '', depth: 0 }];
  while (stack.length > 0) {
    const { dir, rel, depth } = stack.pop()!;
    let names;
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skip it rather than fail the whole walk
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: { dir: string; rel: string; depth: number }[] = [];
    for (const d of names) {
      const lower = d.name.toLowerCase();
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
      // `dir` is already a normalized absolute path and a name holds no `/`: plain concatenation is `join`'s result
      // without its normalizing pass (a tenth of a big listing's time).
      const full = dir.endsWith('/') ? `${dir}${d.name}` : `${dir}/${d.name}`;
      if (lower === SECRETS_DIR) continue;
      let entry: WalkEntry;
      if (d.name.includes(REPLACEMENT_CHAR) && isUnopenableName(full)) {
        entry = {
          rel: childRel,
          path: full,
          kind: 'other',
          isSymlink: false,
          isBlocked: false,
          depth: depth + 1,
          isUnopenable: true,
        };
      } else if (d.isSymbolicLink()) {
        entry = options.noFollow
          ? { rel: childRel, path: full, kind: 'other', isSymlink: true, isBlocked: true, depth: depth + 1 }
          : followLink(full, childRel, root, visited, depth + 1);
      } else {
        entry = {
          rel: childRel,
          path: full,
          kind: d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other',
          isSymlink: false,
          isBlocked: false,
          depth: depth + 1,
        };
      }
      if (options.skip?.(entry.path)) continue;
      yield entry;
      const skipped = SKIP_DIRS.has(lower) && !options.includeSkipped;
      if (
        entry.kind === 'dir' &&
        !entry.isBlocked &&
        !skipped &&
        options.recursive &&
        (options.maxDepth === undefined || depth + 1 < options.maxDepth)
      ) {
        subdirs.push({ dir: entry.path, rel: childRel, depth: depth + 1 });
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
}

function followLink(full: string, rel: string, root: string, visited: Set<string>, depth: number): WalkEntry {
  const blocked: WalkEntry = { rel, path: full, kind: 'other', isSymlink: true, isBlocked: true, depth };
  let target: string;
  let info: Stats;
  try {
    target = realpathSync.native(full);
    info = statSync(target);
  } catch {
    return blocked; // dangling link or a loop the kernel refused (ELOOP)
  }
  const inside = relativeInside(target, root);
  if (inside === null || hasComponent(inside, SECRETS_DIR)) return blocked;
  if (info.isDirectory()) {
    if (visited.has(target)) return { ...blocked, kind: 'dir' };
    visited.add(target);
    return { rel, path: target, kind: 'dir', isSymlink: true, isBlocked: false, depth };
  }
  return { rel, path: target, kind: info.isFile() ? 'file' : 'other', isSymlink: true, isBlocked: false, depth };
}

/** For execute_cmd's `workdir`: an existing folder, by its real path. */
export function realDirectory(path: string): string | null {
  try {
    const real = realpathSync.native(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** The names in a folder (not following a final symlink), or [] when it cannot be listed. */
export function listFolder(dir: string): string[] {
  try {
    return lstatSync(dir).isDirectory() ? readdirSync(dir) : [];
  } catch {
    return [];
  }
}

/** Removes one file or link (never what a link points at); false when it was not there or could not go. */
export function removeFile(path: string): boolean {
  try {
    if (lstatSync(path).isDirectory()) return false;
    unlinkSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the sandbox's plan must know about a folder tree it cannot glob (docs/sandbox.md "What is hidden"): the
 * `secrets` folders in it (any letter case), the `.git` folders and `.git` pointer files, and the folders a
 * repository's config names as its hooks (`core.hooksPath`, found with tools/_policy/git-paths.ts). bubblewrap binds
 * paths, not patterns, so these are looked for once, when a session's plan is built, by a bounded walk.
 * The walk lists names and kinds only (it opens no file), never follows a symlink into a folder (a `secrets`
 * symlink is reported by its real target), does not enter `node_modules` or what it found, and stops at
 * `MAX_DEPTH` levels or `MAX_FOLDERS` folders; `cut` then says where it stopped. It lists a level's folders at once,
 * off the app's thread (libuv's pool): a big tree costs the first command of a session a few hundred milliseconds of
 * waiting, never the app a blocked thread.
 * Limits: a `secrets` folder deeper than the walk, in a folder it skipped, or made after the plan was built is not
 * hidden (the gate's guard still asks for a command that names one); a hooks folder named by a config is looked for
 * only in the first `HOOKS_DEPTH` levels (`.husky`, `.githooks`, `tools/git-hooks`: each question costs a look at
 * every enclosing repository's config).
 */
import { type Dirent, realpathSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gitConfiguredReason } from '../tools/_policy/git-paths';

export const MAX_DEPTH = 8;
export const MAX_FOLDERS = 5_000;
export const HOOKS_DEPTH = 3;
const NOT_ENTERED = new Set(['node_modules']);

export interface FoundPlaces {
  /** Real paths of `secrets` folders (a symlink named `secrets`: its target folder). */
  secrets: string[];
  /** `.git` folders (a repository's metadata). */
  gitDirs: string[];
  /** `.git` files (a submodule's or worktree's pointer to its repository). */
  gitFiles: string[];
  /** Folders a repository's config names as its hooks folder. */
  hookDirs: string[];
  /** Why the walk did not see everything, or null. */
  cut: string | null;
}

/** A folder's entries; none when it cannot be read (a command cannot read it either). */
function listing(dir: string): Promise<Dirent[]> {
  return readdir(dir, { withFileTypes: true }).catch(() => []);
}

function realDir(path: string): string | null {
  try {
    const real = realpathSync.native(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** Walks each root breadth-first (the shallow places first, where a cut hurts least), a level at a time. */
export async function findGuardedPlaces(roots: readonly string[]): Promise<FoundPlaces> {
  const found: FoundPlaces = { secrets: [], gitDirs: [], gitFiles: [], hookDirs: [], cut: null };
  const seen = new Set<string>();
  let queue = roots.map((dir) => ({ dir, depth: 0 }));
  let folders = 0;
  while (queue.length > 0) {
    const level = queue.filter(({ dir }) => !seen.has(dir) && (seen.add(dir), true));
    if (folders + level.length > MAX_FOLDERS) {
      level.length = Math.max(0, MAX_FOLDERS - folders);
      found.cut = `the walk stopped after ${MAX_FOLDERS} folders`;
    }
    folders += level.length;
    const listings = await Promise.all(level.map(({ dir }) => listing(dir)));
    const next: typeof queue = [];
    for (const [i, { dir, depth }] of level.entries()) {
      // A folder a repository names as its hooks folder is read-only whole: nothing below it needs a look.
      if (depth < HOOKS_DEPTH && gitConfiguredReason(join(dir, 'hook')) !== null) {
        found.hookDirs.push(dir);
        continue;
      }
      for (const entry of listings[i]!) {
        const full = join(dir, entry.name);
        const lower = entry.name.toLowerCase();
        if (lower === 'secrets') {
          const real = entry.isDirectory() ? full : entry.isSymbolicLink() ? realDir(full) : null;
          if (real) found.secrets.push(real);
        } else if (lower === '.git') {
          if (entry.isDirectory()) found.gitDirs.push(full);
          else if (entry.isFile()) found.gitFiles.push(full);
        } else if (entry.isDirectory() && !NOT_ENTERED.has(lower)) {
          if (depth + 1 < MAX_DEPTH) next.push({ dir: full, depth: depth + 1 });
          else found.cut ??= `the walk went ${MAX_DEPTH} folders deep`;
        }
      }
    }
    queue = found.cut ? [] : next;
  }
  return found;
}

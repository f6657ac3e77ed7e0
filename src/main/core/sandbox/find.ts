/**
 * What the sandbox's plan must know about a folder tree it cannot glob (docs/sandbox.md "What is hidden"): the
 * `secrets` folders in it (any letter case), the `.git` folders and `.git` pointer files, and the folders a
 * repository's config names as its hooks (`core.hooksPath`, found with tools/_policy/git-paths.ts). bubblewrap binds
 * paths, not patterns, so these are looked for once, when a session's plan is built, by a bounded walk.
 * The walk lists names and kinds only (it opens no file), never follows a symlink into a folder (a `secrets`
 * symlink is reported by its real target), does not enter `node_modules` or what it found, and stops at
 * `MAX_DEPTH` levels or `MAX_FOLDERS` folders; `cut` then says where it stopped.
 * Limits: a `secrets` folder deeper than the walk, in a folder it skipped, or made after the plan was built is not
 * hidden (the gate's guard still asks for a command that names one); a hooks folder named by a config is found only
 * where the walk went.
 */
import { type Dirent, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gitConfiguredReason } from '../tools/_policy/git-paths';

export const MAX_DEPTH = 8;
export const MAX_FOLDERS = 5_000;
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

function listing(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // unreadable: a command cannot read it either
  }
}

function realDir(path: string): string | null {
  try {
    const real = realpathSync.native(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** Walks each root breadth-first (the shallow places first, where a cut hurts least). */
export function findGuardedPlaces(roots: readonly string[]): FoundPlaces {
  const found: FoundPlaces = { secrets: [], gitDirs: [], gitFiles: [], hookDirs: [], cut: null };
  const seen = new Set<string>();
  let queue = roots.map((dir) => ({ dir, depth: 0 }));
  let folders = 0;
  while (queue.length > 0) {
    const next: typeof queue = [];
    for (const { dir, depth } of queue) {
      if (seen.has(dir)) continue;
      seen.add(dir);
      if (++folders > MAX_FOLDERS) {
        found.cut = `the walk stopped after ${MAX_FOLDERS} folders`;
        return found;
      }
      // A folder a repository names as its hooks folder is read-only whole: nothing below it needs a look.
      if (gitConfiguredReason(join(dir, 'hook')) !== null) {
        found.hookDirs.push(dir);
        continue;
      }
      for (const entry of listing(dir)) {
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
    queue = next;
  }
  return found;
}

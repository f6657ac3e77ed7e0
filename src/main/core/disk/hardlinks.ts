/**
 * Hard links to guarded files (docs/guards.md "Hard links"). A hard link is a second name for the same file, and
 * no path check can see it: `ln secrets/key.txt notes.txt` makes `notes.txt` the key itself. So a regular file
 * with more than one link is judged by its identity (device + inode) against the guarded files: every file under
 * a `secrets` folder of the workspace (any depth, any letter case) and every file of the app's data folder outside
 * the workspace (database, settings, key file, …). "The workspace" is the session's working directory, and the app's
 * default workspace beside it when the session works elsewhere (both given as `Workspaces`, the first the working
 * directory): the default workspace's `secrets` stay guarded, and its other files are not taken for the data folder's.
 * The guarded identities are gathered by a bounded walk (folders only are searched for `secrets`; SKIP_DIRS other
 * than `secrets` are not entered) and kept for CACHE_MS. When the walk hits its bound the answer for a
 * multi-link file is "unknown": the gate asks, and the tools go on only when the identity is not among those seen.
 * Limits: a guarded file created after the walk is seen at the next walk (at most CACHE_MS later); files with a
 * single link are never looked up (they are what their path says).
 */
import { lstatSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { SECRETS_DIR } from './protected';

const CACHE_MS = 2000;
/** Folders visited per walk before the answer becomes "unknown". */
export const MAX_WALK_DIRS = 5000;
/** Folders the search for `secrets` folders does not enter (big, and never holding the user's secrets). */
const NOT_SEARCHED = new Set(['.git', 'node_modules', 'target', '__pycache__', '.venv', '.hg', '.svn']);

export interface GuardedIdentities {
  ids: Set<string>;
  /** False when a walk stopped at its bound: an identity not in `ids` may still be guarded. */
  isComplete: boolean;
}

const idOf = (s: Pick<Stats, 'dev' | 'ino'>) => `${s.dev}:${s.ino}`;
const cache = new Map<string, { at: number; value: GuardedIdentities }>();
let last: { workspace: Workspaces; dataDirs: readonly string[]; at: number; value: GuardedIdentities } | null = null;

/** One workspace, or the working directory followed by the default workspace (all canonical). */
export type Workspaces = string | readonly string[];
const listOf = (w: Workspaces): readonly string[] => (typeof w === 'string' ? [w] : w);

/** The identities of the guarded files for these workspaces (canonical) and data folders (canonical). */
export function guardedIdentities(
  workspace: Workspaces,
  dataDirs: readonly string[],
  now = Date.now(),
  maxDirs = MAX_WALK_DIRS,
): GuardedIdentities {
  // A tree search asks once per file with the same folders: the last answer is kept by the arrays' identity, so such a
  // run of questions costs no key of text each.
  if (last && last.workspace === workspace && last.dataDirs === dataDirs && now - last.at < CACHE_MS) return last.value;
  const key = [...listOf(workspace), '', ...dataDirs].join('\0');
  const hit = cache.get(key);
  if (hit && now - hit.at < CACHE_MS) {
    last = { workspace, dataDirs, at: hit.at, value: hit.value };
    return hit.value;
  }
  const value: GuardedIdentities = { ids: new Set(), isComplete: true };
  const budget: Budget = { dirs: 0, max: maxDirs };
  const workspaces = listOf(workspace);
  for (const ws of workspaces) findSecretsFolders(ws, value, budget);
  for (const dir of dataDirs) addAllFiles(dir, value, budget, workspaces);
  if (cache.size > 16) cache.clear();
  cache.set(key, { at: now, value });
  last = { workspace, dataDirs, at: now, value };
  return value;
}

/** Forget the cached walk (tests that create guarded files and links in quick succession). */
export function forgetGuardedIdentities(): void {
  cache.clear();
  last = null;
}

/**
 * For a file's stat: 'guarded' when it is a multi-link regular file with a guarded identity, 'unknown' when it is
 * a multi-link file the bounded walk cannot clear, null when it is not a concern.
 */
export function hardLinkVerdict(
  info: Pick<Stats, 'dev' | 'ino' | 'nlink' | 'isFile'>,
  workspace: Workspaces,
  dataDirs: readonly string[],
): 'guarded' | 'unknown' | null {
  if (!info.isFile() || info.nlink <= 1) return null;
  const guarded = guardedIdentities(workspace, dataDirs);
  if (guarded.ids.has(idOf(info))) return 'guarded';
  return guarded.isComplete ? null : 'unknown';
}

/** The same for a path (not following a final symlink: the caller judged the link's target already). */
export function hardLinkVerdictAt(
  path: string,
  workspace: Workspaces,
  dataDirs: readonly string[],
): 'guarded' | 'unknown' | null {
  let info: Stats | undefined;
  try {
    info = statSync(path, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  return info ? hardLinkVerdict(info, workspace, dataDirs) : null;
}

type Budget = { dirs: number; max: number };

/**
 * One folder of a bounded walk: its entries, or null when it cannot be read or the budget is spent (then the answer
 * is marked incomplete, so a multi-link file the walk did not clear is "unknown", never "fine").
 */
function readBounded(dir: string, out: GuardedIdentities, budget: Budget): Dirent[] | null {
  if (++budget.dirs > budget.max) {
    out.isComplete = false;
    return null;
  }
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return null;
  }
}

function findSecretsFolders(dir: string, out: GuardedIdentities, budget: Budget): void {
  for (const e of readBounded(dir, out, budget) ?? []) {
    if (!e.isDirectory()) continue;
    const lower = e.name.toLowerCase();
    if (lower === SECRETS_DIR) addAllFiles(join(dir, e.name), out, budget, []);
    else if (!NOT_SEARCHED.has(lower)) findSecretsFolders(join(dir, e.name), out, budget);
    if (!out.isComplete) return;
  }
}

function addAllFiles(dir: string, out: GuardedIdentities, budget: Budget, skip: readonly string[]): void {
  if (skip.includes(dir)) return;
  for (const e of readBounded(dir, out, budget) ?? []) {
    const full = join(dir, e.name);
    if (e.isDirectory()) addAllFiles(full, out, budget, skip);
    else if (e.isFile()) {
      try {
        out.ids.add(idOf(lstatSync(full)));
      } catch {
        /* vanished */
      }
    }
    if (!out.isComplete) return;
  }
}

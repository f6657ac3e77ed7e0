/**
 * Hard links to guarded files (docs/guards.md "Hard links"). A hard link is a second name for the same file, and
 * no path check can see it: `ln secrets/key.txt notes.txt` makes `notes.txt` the key itself. So a regular file
 * with more than one link is judged by its identity (device + inode) against the guarded files: every file under
 * a `secrets` folder of the workspace (any depth, any letter case) and every file of the app's data folder outside
 * the workspace (database, settings, key file, …). "The workspace" is the session's working directory, and the app's
 * default workspace beside it when the session works elsewhere (both given as `Workspaces`, the first the working
 * directory): the default workspace's `secrets` stay guarded, and its other files are not taken for the data folder's.
 * The guarded identities are gathered by a bounded walk (folders only are searched for `secrets`; SKIP_DIRS other
 * than `secrets` are not entered). When the walk hits its bound the answer for a multi-link file is "unknown": the
 * gate asks, and the tools go on only when the identity is not among those seen.
 * The answer is kept while the folders the walk read are as it read them: each folder's times are noted (`lstat`,
 * before its listing is read), and every CHECK_MS they are asked again, a `stat` each instead of a listing each (a
 * fifth of the cost: a walk of this checkout's node_modules, 3,484 folders, was a third of a `grep_files` whole
 * answer's own thread there). An entry added, removed or renamed in a folder (a file made in `secrets/`, a folder
 * renamed to `secrets`, a new file in the data folder) changes that folder's change time (ctime, which no program can
 * set back), so the next check walks again. A folder whose change time was near the walk is not trusted (the clock
 * of file times moves in ticks, and a second change in the tick of the walk would leave the time as noted): the next
 * check walks again. And the answer is walked anew after MAX_KEEP_MS whatever the times say.
 * Limits: a guarded file created after the walk is seen at the next check (at most CHECK_MS later; at most MAX_KEEP_MS
 * where the file system's clock lags this machine's by more than SETTLE_MS); a hard link made to a guarded file seen
 * by the walk is judged at once (its identity is the guarded file's); files with a single link are never looked up
 * (they are what their path says).
 */
import { lstatSync, readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { SECRETS_DIR } from './protected';

/** How long a walk's answer is used before its folders' times are asked again. */
export const CHECK_MS = 2000;
/** A walk's answer is never kept longer than this, whatever its folders' times say. */
export const MAX_KEEP_MS = 60_000;
/**
 * A folder changed this little before its walk (or after it, by the file system's clock) is walked again at the next
 * check. File times come from a coarse clock (a tick of up to 10 ms on Linux, 2 s on FAT): this is far above its tick.
 */
const SETTLE_MS = 5000;
/** Folders visited per walk before the answer becomes "unknown". */
export const MAX_WALK_DIRS = 5000;
/** Folders the search for `secrets` folders does not enter (big, and never holding the user's secrets). */
const NOT_SEARCHED = new Set(['.git', 'node_modules', 'target', '__pycache__', '.venv', '.hg', '.svn']);

export interface GuardedIdentities {
  ids: Set<string>;
  /** False when a walk stopped at its bound: an identity not in `ids` may still be guarded. */
  isComplete: boolean;
}

/** A folder as the walk found it, before reading its listing: its identity and times, or null when it was not there. */
interface FolderStamp {
  path: string;
  seen: Pick<Stats, 'dev' | 'ino' | 'ctimeMs' | 'mtimeMs'> | null;
}

/** A walk's answer and what it rests on. */
interface Walked {
  value: GuardedIdentities;
  folders: FolderStamp[];
  /** A folder changed near the walk: its times cannot vouch for its listing. */
  isUnsettled: boolean;
  walkedAt: number;
  checkedAt: number;
}

const idOf = (s: Pick<Stats, 'dev' | 'ino'>) => `${s.dev}:${s.ino}`;
const cache = new Map<string, Walked>();
let last: { workspace: Workspaces; dataDirs: readonly string[]; walked: Walked } | null = null;

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
  if (last && last.workspace === workspace && last.dataDirs === dataDirs && isFresh(last.walked, now))
    return last.walked.value;
  const key = [...listOf(workspace), '', ...dataDirs].join('\0');
  let walked = cache.get(key);
  if (!walked || !isFresh(walked, now)) {
    if (walked && isStillAsWalked(walked, now)) walked.checkedAt = now;
    else {
      walked = walk(listOf(workspace), dataDirs, now, maxDirs);
      if (cache.size > 16) cache.clear();
      cache.set(key, walked);
    }
  }
  last = { workspace, dataDirs, walked };
  return walked.value;
}

/** Checked less than CHECK_MS ago (a clock set back counts as stale). */
const isFresh = (w: Walked, now: number) => now >= w.checkedAt && now - w.checkedAt < CHECK_MS;

/** Whether every folder the walk read is as it was then (a `stat` each), so its answer still holds. */
function isStillAsWalked(w: Walked, now: number): boolean {
  if (w.isUnsettled || now < w.walkedAt || now - w.walkedAt >= MAX_KEEP_MS) return false;
  for (const { path, seen } of w.folders) {
    const info = stampOf(path);
    if (info === null || seen === null) {
      if (info !== seen) return false;
      continue;
    }
    if (
      info.ino !== seen.ino ||
      info.dev !== seen.dev ||
      info.ctimeMs !== seen.ctimeMs ||
      info.mtimeMs !== seen.mtimeMs
    )
      return false;
  }
  return true;
}

function walk(workspaces: readonly string[], dataDirs: readonly string[], now: number, maxDirs: number): Walked {
  const value: GuardedIdentities = { ids: new Set(), isComplete: true };
  const walked: Walked = { value, folders: [], isUnsettled: false, walkedAt: now, checkedAt: now };
  const budget: Budget = { dirs: 0, max: maxDirs, walked };
  for (const ws of workspaces) findSecretsFolders(ws, value, budget);
  for (const dir of dataDirs) addAllFiles(dir, value, budget, workspaces);
  return walked;
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
  return info.isFile() ? identityVerdict(info, workspace, dataDirs) : null;
}

/**
 * The same for a regular file known by its identity alone (read on a descriptor elsewhere: a search's worker thread,
 * disk/search-reader.ts `confirmLeavingLinks`).
 */
export function identityVerdict(
  id: Pick<Stats, 'dev' | 'ino' | 'nlink'>,
  workspace: Workspaces,
  dataDirs: readonly string[],
): 'guarded' | 'unknown' | null {
  if (id.nlink <= 1) return null;
  const guarded = guardedIdentities(workspace, dataDirs);
  if (guarded.ids.has(idOf(id))) return 'guarded';
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

type Budget = { dirs: number; max: number; walked: Walked };

/** A folder's identity and times (not following a final link), or null when nothing is there or it cannot be asked. */
function stampOf(path: string): FolderStamp['seen'] {
  try {
    const info = lstatSync(path, { throwIfNoEntry: false });
    return info ? { dev: info.dev, ino: info.ino, ctimeMs: info.ctimeMs, mtimeMs: info.mtimeMs } : null;
  } catch {
    return null;
  }
}

/**
 * One folder of a bounded walk: its entries, or null when it cannot be read or the budget is spent (then the answer
 * is marked incomplete, so a multi-link file the walk did not clear is "unknown", never "fine"). Its times are noted
 * before its listing is read, so a change made while it is read shows as a change at the next check.
 */
function readBounded(dir: string, out: GuardedIdentities, budget: Budget): Dirent[] | null {
  if (++budget.dirs > budget.max) {
    out.isComplete = false;
    return null;
  }
  const { walked } = budget;
  const seen = stampOf(dir);
  walked.folders.push({ path: dir, seen });
  if (seen && seen.ctimeMs > walked.walkedAt - SETTLE_MS) walked.isUnsettled = true;
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

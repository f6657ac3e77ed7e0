/**
 * What a sandboxed command may see and change, for one session (docs/sandbox.md "What a command may do"), as a list of
 * mounts on top of a read-only view of the whole file system, shallowest path first (a deeper mount covers what a
 * shallower one showed: the workspace inside the hidden data folder is shown again, a `secrets` folder inside the
 * writable working folder hidden again). Platform-neutral: bwrap.ts turns it into bubblewrap's arguments and
 * seatbelt.ts into a Seatbelt profile.
 * - writable: the session's working directory, and a private `/tmp`;
 * - hidden: the app's data folders, every `secrets` folder the walk finds in the working directory and the workspace
 *   (find.ts), and the credential stores the guards know (passed in by the caller: approval/guards.ts lists them,
 *   and the sandbox sits below approval), found in any letter case below each home folder and in /etc;
 * - read-only inside the working directory: what git runs or reads as configuration (each `.git`'s hooks, config,
 *   config.worktree, commondir, gitdir, modules/ and worktrees/; `.git` pointer files; hooks folders a config names).
 *   Each `.git` folder is bound onto itself too, so that it cannot be renamed away and replaced by a new one. A
 *   missing hooks/, modules/ or worktrees/ is made, empty and read-only, as the mount point (as `git init` makes
 *   hooks/). Limits: a missing config.worktree, commondir or gitdir file can be made (a mount point would be an
 *   empty file, which git refuses to read), and so can a new repository (`git init` in a folder without one).
 * Every path is a real path (symlinks resolved): a mount on a symlink would land on its target anyway.
 * `isFresh` tells, cheaply, whether the file system still matches the plan (a hidden path removed or replaced, a new
 * `secrets` or `.git` at the top of a walked folder); the cache (sandbox.ts) then builds it again.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, sep } from 'node:path';
import { pathUnder } from '../tools/_policy/paths';
import { findGuardedPlaces } from './find';
import type { SandboxScope } from '../tools/sandbox-port';

export type { SandboxScope };

/** Credential stores: relative to a home folder (lower case, `/`-separated) and absolute system paths. */
export interface CredentialStores {
  home: readonly string[];
  system: readonly string[];
}

export type MountKind = 'private-tmp' | 'writable' | 'read-only' | 'hidden';
/** Why a mount is there: what a refusal is explained with (explain.ts). */
export type MountWhy =
  | 'temp'
  | 'working-folder'
  | 'workspace'
  | 'data-folder'
  | 'secrets'
  | 'credentials'
  | 'git'
  | 'call-folder';

export interface Mount {
  path: string;
  kind: MountKind;
  isDir: boolean;
  why: MountWhy;
}

export interface SandboxPlan {
  /** Applied in order: by depth, then private-tmp < writable < read-only < hidden at one path. */
  readonly mounts: readonly Mount[];
  /** The real working directory (the one writable folder besides the private /tmp). */
  readonly workingDir: string;
  /** Where the walk for `secrets` and `.git` stopped, or null when it saw everything. */
  readonly walkCut: string | null;
  /** Whether the file system still matches what the plan was built from (cheap: a stat per mount, two listings). */
  isFresh(): boolean;
}

const RANK: Record<MountKind, number> = { 'private-tmp': 0, writable: 1, 'read-only': 2, hidden: 3 };
const depthOf = (path: string) => (path === sep ? 0 : path.split(sep).length - 1);

export function orderMounts(mounts: readonly Mount[]): Mount[] {
  return [...mounts].sort((a, b) => depthOf(a.path) - depthOf(b.path) || RANK[a.kind] - RANK[b.kind]);
}

function real(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/** 'dir', 'file', or null when nothing is there (a symlink answers for its target). */
function kindAt(path: string): 'dir' | 'file' | null {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

/** Each existing path whose components match `rel`'s in any letter case, below `base` (`rel` lower case). */
function inAnyCase(base: string, rel: string, listings: Map<string, string[]>): string[] {
  let places = [base];
  for (const part of rel.split('/')) {
    const next: string[] = [];
    for (const dir of places) {
      let names = listings.get(dir);
      if (!names) {
        try {
          names = readdirSync(dir);
        } catch {
          names = [];
        }
        listings.set(dir, names);
      }
      for (const name of names) if (name.toLowerCase() === part) next.push(join(dir, name));
    }
    places = next;
    if (places.length === 0) break;
  }
  return places;
}

/** Names at the top of a walked folder that would change the plan: `secrets` and `.git`, any case. */
function topNames(dir: string): string {
  try {
    return readdirSync(dir)
      .filter((n) => /^(secrets|\.git)$/i.test(n))
      .sort()
      .join('/');
  } catch {
    return '';
  }
}

const GIT_FILES = ['config', 'config.worktree', 'commondir', 'gitdir'];
const GIT_DIRS = ['modules', 'worktrees'];

/**
 * Builds the plan for a scope. Throws when the working directory does not exist (the caller checked it moments
 * before, so this is a race it reports as such).
 */
export async function buildPlan(
  scope: SandboxScope,
  stores: CredentialStores,
  homes: readonly string[] = [homedir()],
): Promise<SandboxPlan> {
  const workingDir = real(scope.workingDir);
  if (!workingDir) throw new Error(`the working folder ${scope.workingDir} does not exist`);
  const workspace = real(scope.workspaceDir);
  const mounts: Mount[] = [
    { path: '/tmp', kind: 'private-tmp', isDir: true, why: 'temp' },
    { path: workingDir, kind: 'writable', isDir: true, why: 'working-folder' },
  ];
  const add = (path: string, kind: MountKind, why: MountWhy, isDir = kindAt(path) === 'dir') =>
    mounts.push({ path, kind, isDir, why });
  const hide = (path: string, why: MountWhy) => {
    const r = real(path);
    if (r && r !== '/') add(r, 'hidden', why);
  };

  const dataDirs = scope.dataDirs.map(real).filter((d): d is string => d !== null);
  for (const dir of dataDirs) add(dir, 'hidden', 'data-folder', true);
  // The workspace inside a hidden data folder (the default layout) is shown again: readable, writable only as far as
  // it is the working folder.
  if (workspace && dataDirs.some((d) => pathUnder(workspace, d) && workspace !== d) && workspace !== workingDir)
    add(workspace, pathUnder(workspace, workingDir) ? 'writable' : 'read-only', 'workspace', true);

  const roots = [workingDir, ...(workspace && workspace !== workingDir ? [workspace] : [])];
  const found = await findGuardedPlaces(roots);
  for (const dir of found.secrets) hide(dir, 'secrets');

  const listings = new Map<string, string[]>();
  for (const home of new Set(homes.map((h) => real(h)).filter((h): h is string => h !== null)))
    for (const rel of stores.home) for (const path of inAnyCase(home, rel, listings)) hide(path, 'credentials');
  for (const abs of stores.system)
    for (const path of inAnyCase('/', abs.replace(/^\/+/, '').toLowerCase(), listings)) hide(path, 'credentials');

  const writable = (path: string) => pathUnder(path, workingDir);
  for (const gitDir of found.gitDirs.filter(writable)) {
    // Bound onto itself: a mount point cannot be renamed or removed, so no new `.git` can take its place.
    add(gitDir, 'writable', 'git', true);
    const hooks = join(gitDir, 'hooks');
    // A missing hooks folder is made (empty, read-only) as the mount point, as `git init` would have made it.
    add(hooks, kindAt(hooks) === 'dir' ? 'read-only' : 'hidden', 'git', true);
    for (const name of GIT_FILES)
      if (kindAt(join(gitDir, name)) === 'file') add(join(gitDir, name), 'read-only', 'git');
    // Submodules' and worktrees' repositories, with their own hooks and config: read-only whole, or made (empty,
    // read-only) where missing, so that none can be made inside the sandbox.
    for (const name of GIT_DIRS) {
      const dir = join(gitDir, name);
      add(dir, kindAt(dir) === 'dir' ? 'read-only' : 'hidden', 'git', true);
    }
  }
  for (const file of found.gitFiles.filter(writable)) add(file, 'read-only', 'git', false);
  for (const dir of found.hookDirs.filter(writable)) add(dir, 'read-only', 'git', true);

  const ordered = orderMounts(dedupe(mounts));
  const expected = ordered
    .filter((m) => m.kind !== 'private-tmp')
    .map((m) => ({
      path: m.path,
      kind: m.isDir ? 'dir' : 'file',
      mayBeMissing: m.why === 'git' && m.kind === 'hidden',
    }));
  const tops = roots.map((r) => [r, topNames(r)] as const);
  return {
    mounts: ordered,
    workingDir,
    walkCut: found.cut,
    isFresh: () =>
      expected.every((e) => {
        const now = kindAt(e.path);
        return now === e.kind || (now === null && e.mayBeMissing);
      }) && tops.every(([dir, names]) => topNames(dir) === names),
  };
}

/** One mount per path and kind (the same credential store reached from two homes, a secrets folder found twice). */
function dedupe(mounts: readonly Mount[]): Mount[] {
  const seen = new Set<string>();
  return mounts.filter((m) => {
    const key = `${m.kind}\0${m.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

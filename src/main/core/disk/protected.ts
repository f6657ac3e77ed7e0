/**
 * What the disk policy guards whatever a caller asked (docs/guards.md): every file under a `secrets` folder (any depth,
 * any letter case) and the app's data folder (database, key file, settings), a workspace that lives inside it aside.
 * `GuardScope` names them for one caller: `root` is the folder whose `secrets` folders count (the session's working
 * directory), `otherWorkspaces` the app's default workspace when the session works elsewhere (its `secrets` folders
 * stay guarded, docs/approval.md "Relative means the working directory"), `protectedRoots` the data folders. The tools' `PathContext` (tools/_policy/guard.ts) and the viewer's
 * read policy each build one from their own context, so both judge a hard link against the same files.
 */
import { canonicalizeForPolicy, hasComponent, pathUnder, relativeInside } from './paths';

export const SECRETS_DIR = 'secrets';

export interface GuardScope {
  /** Canonical folder whose `secrets` folders are guarded (and which stays readable inside a data folder). */
  root: string;
  /** Canonical data folders: every file in them outside `root` and `otherWorkspaces` is guarded. */
  protectedRoots: readonly string[];
  /** Canonical default workspace when it is not `root`: its `secrets` folders are guarded too. */
  otherWorkspaces?: readonly string[];
}

const rootCache = new Map<string, string>();

/**
 * The canonical form of a folder the policy is anchored to. Cached (asked on every call for the same few folders), but
 * only when it has no symlink on it: a folder that is a link now may be swapped for another link later, and an answer
 * kept from the moment it pointed into `secrets/` would anchor every later check there.
 */
export function canonicalRoot(dir: string): string {
  let real = rootCache.get(dir);
  if (real === undefined) {
    real = canonicalizeForPolicy(dir, dir);
    if (real !== dir) return real;
    if (rootCache.size > 64) rootCache.clear();
    rootCache.set(dir, real);
  }
  return real;
}

/** The canonical data folder `real` lies in, or null; a workspace strictly inside that folder stays open. */
export function inProtectedRoot(
  real: string,
  root: string,
  protectedRoots: readonly string[] | undefined,
): string | null {
  for (const dir of protectedRoots ?? []) {
    const protectedReal = canonicalRoot(dir);
    if (!pathUnder(real, protectedReal)) continue;
    const workspaceInside = pathUnder(root, protectedReal) && root !== protectedReal;
    if (workspaceInside && pathUnder(real, root)) continue;
    return protectedReal;
  }
  return null;
}

/** A scope from folders as configured (not yet canonical); `defaultWorkspace` counts only when it is not `root`. */
export function guardScope(
  root: string,
  protectedRoots: readonly string[] = [],
  defaultWorkspace?: string,
): GuardScope {
  const canonical = canonicalRoot(root);
  const other = defaultWorkspace === undefined ? canonical : canonicalRoot(defaultWorkspace);
  return {
    root: canonical,
    protectedRoots: protectedRoots.map(canonicalRoot),
    ...(other === canonical ? {} : { otherWorkspaces: [other] }),
  };
}

/**
 * Whether a canonical path lies where the scope guards: below a `secrets` folder of one of its workspaces, or in a
 * data folder outside them. The disk module asks it of the path an opened descriptor is at (open.ts), so a path its
 * caller judged against a folder swapped for a link in the meantime is still caught by the other anchors.
 */
export function isGuardedPlace(real: string, scope: GuardScope): boolean {
  for (const ws of secretWorkspaces(scope)) {
    const rel = relativeInside(real, ws);
    if (rel !== null && hasComponent(rel, SECRETS_DIR)) return true;
  }
  if (secretWorkspaces(scope).some((ws) => pathUnder(real, ws))) return false;
  return scope.protectedRoots.some((dir) => pathUnder(real, dir));
}

const workspacesOf = new WeakMap<GuardScope, readonly string[]>();

/**
 * The workspaces whose `secrets` folders a scope guards, its root first: the same array for the same scope, so a tree
 * search asking for each of its files hits the hard-link walk's cache by identity (hardlinks.ts).
 */
export function secretWorkspaces(scope: GuardScope): readonly string[] {
  let list = workspacesOf.get(scope);
  if (!list) {
    list = [scope.root, ...(scope.otherWorkspaces ?? [])];
    workspacesOf.set(scope, list);
  }
  return list;
}

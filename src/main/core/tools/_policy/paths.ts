/**
 * The one path resolver every fs tool and the approval gate use (docs/approval.md "The normalized call";
 * checks F1–F4, X4 in docs/security-checks.md).
 * - `resolvePath`: absolute as given, else relative to the working directory.
 * - `canonicalizeForPolicy`: resolves `..` and the symlinks of the longest *existing* ancestor, then appends the
 *   not-yet-existing tail, so `link/new/dir/file` with `link -> /outside` canonicalizes to `/outside/new/dir/file`.
 * - `canonicalBelow`: the same answer for a path under a folder whose canonical form the caller has just resolved,
 *   walked from that folder with one lstat per component (docs/guards.md "Canonical paths").
 * - `pathUnder`: whole-component prefix test (`/ws-evil` is not under `/ws`).
 * Limits: case-insensitive filesystems are handled by callers that compare components (see `componentEquals`);
 * a path can change between this check and the open (TOCTOU) — writers re-check the opened target.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, normalize, relative, resolve, sep } from 'node:path';

export function resolvePath(path: string, workingDir: string): string {
  return isAbsolute(path) ? normalize(path) : resolve(workingDir, path);
}

export function canonicalizeForPolicy(path: string, base: string): string {
  const absolute = resolvePath(path, base);
  const tail: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return tail.length === 0 ? real : join(real, ...tail.reverse());
    } catch {
      const parent = resolve(current, '..');
      if (parent === current) return absolute; // nothing exists, not even the root: keep the lexical form
      tail.push(current.slice(parent.length).replace(/^[\\/]+/, ''));
      current = parent;
    }
  }
}

/**
 * Why a walk: glibc's realpath makes one readlink per component from the root (eleven for a new file six folders
 * deep, then half of them again for its folder after the missing name's exception), and a gate decision asks it for
 * the workspace and then for a path inside it. Linux only: realpath elsewhere also gives names their case on disk,
 * which a walk by lstat does not.
 */
const WALK_BELOW = process.platform === 'linux';

/**
 * `canonicalizeForPolicy(absolute)` for an absolute, normalized path lexically under `dir` (or `dir` itself), given
 * `dirCanon`, the canonical form of `dir` resolved by the caller moments before (what a swap in between means:
 * docs/guards.md "Canonical paths"): `dirCanon` plus the rest, each component checked with one lstat. A missing component ends the
 * walk with the rest appended, as the longest existing ancestor's real path plus the tail is. Returns null whenever
 * the walk cannot answer alone — a symlink on the way, a file used as a folder, any error, `.` / `..` / empty names,
 * another platform — and the caller asks `canonicalizeForPolicy`.
 */
export function canonicalBelow(absolute: string, dir: string, dirCanon: string): string | null {
  if (!WALK_BELOW) return null;
  if (absolute === dir) return dirCanon;
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  if (!absolute.startsWith(prefix)) return null;
  const names = absolute.slice(prefix.length).split('/');
  if (names.some((name) => name === '' || name === '.' || name === '..')) return null;
  let current = dirCanon;
  for (let i = 0; i < names.length; i++) {
    const next = current.endsWith('/') ? `${current}${names[i]}` : `${current}/${names[i]}`;
    let info;
    try {
      info = lstatSync(next, { throwIfNoEntry: false });
    } catch {
      return null; // ENOTDIR, EACCES, ELOOP…: the realpath loop knows what each means
    }
    if (info === undefined) return [next, ...names.slice(i + 1)].join('/');
    if (info.isSymbolicLink()) return null;
    current = next;
  }
  return current;
}

export function pathUnder(child: string, base: string): boolean {
  const rel = relative(base, child);
  if (rel === '') return true;
  // Whole components: `..` or `../x` is outside, but a child literally named `..foo` is inside.
  return !isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`);
}

/** Relative form for display and for rule matching: `/`-separated, '' for the base itself, null when outside. */
export function relativeInside(child: string, base: string): string | null {
  if (!pathUnder(child, base)) return null;
  return relative(base, child).split(sep).join('/');
}

/** How a path is shown: relative to the workspace when inside it, absolute otherwise (docs/viewer.md). */
export function displayPath(absolute: string, workspace: string): string {
  const rel = relativeInside(absolute, workspace);
  return rel === null || rel === '' ? absolute : rel;
}

/** True when any component of the path equals `name`, case-insensitively (F3: `Secrets/` on macOS). */
export function hasComponent(path: string, name: string): boolean {
  const wanted = name.toLowerCase();
  return path.split(/[\\/]+/).some((part) => part.toLowerCase() === wanted);
}

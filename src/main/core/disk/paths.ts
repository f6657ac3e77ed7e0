/**
 * The one path resolver of the disk policy (docs/guards.md "Canonical paths"): every fs tool, the approval gate, the
 * viewer and the output writers judge a path by the answer given here (checks F1–F4, X4 in docs/security-checks.md).
 * - `resolvePath`: absolute as given, else relative to the working directory.
 * - `canonicalizeForPolicy`: resolves `..` and the symlinks of the longest *existing* ancestor, then appends the
 *   not-yet-existing tail, so `link/new/dir/file` with `link -> /outside` canonicalizes to `/outside/new/dir/file`.
 * - `canonicalBelow`: the same answer for a path under a folder whose canonical form the caller has just resolved,
 *   walked from that folder with one lstat per component (docs/guards.md "Canonical paths").
 * - `pathUnder`: whole-component prefix test (`/ws-evil` is not under `/ws`).
 * Limits: case-insensitive filesystems are handled by callers that compare components (`hasComponent`); a path can
 * change between this check and the open (TOCTOU): the disk module's open and write check the opened descriptor.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { isAbsolute, join, normalize, parse, relative, resolve, sep } from 'node:path';

export function resolvePath(path: string, workingDir: string): string {
  return isAbsolute(path) ? normalize(path) : resolve(workingDir, path);
}

export function canonicalizeForPolicy(path: string, base: string): string {
  const absolute = resolvePath(path, base);
  // The path and its ancestors, longest first: `ancestor(0)` is the path, `ancestor(count)` its root. The answer is the
  // real path of the first one that resolves, with the names after it appended. Which one that is is found by
  // halving, not by trying each from the path up: every try copies its whole text, so a path of N names cost N tries
  // of up to N names, and a written path of 16,000 names held the gate 3.8 s (its walk up grew with the square of
  // the length). Halving gives the same answer, as an ancestor of a path that resolves always resolves too.
  const root = parse(absolute).root;
  const starts: number[] = []; // where each name after the root begins, in order
  for (let at = root.length; at < absolute.length; ) {
    const end = absolute.indexOf(sep, at);
    if (end !== at) starts.push(at); // (a normalized path has no empty name but a trailing separator's)
    if (end === -1) break;
    at = end + 1;
  }
  const count = starts.length;
  const ancestor = (k: number) => (k === 0 ? absolute : k === count ? root : absolute.slice(0, starts[count - k]! - 1));
  const realOf = (k: number): string | null => {
    try {
      return realpathSync.native(ancestor(k));
    } catch {
      return null;
    }
  };
  // Most paths exist, or name a new file in a folder that does: the path, then its folder, as the walk up tried them.
  for (let k = 0; k <= Math.min(1, count); k++) {
    const real = realOf(k);
    if (real !== null) return k === 0 ? real : join(real, absolute.slice(starts[count - k]!));
  }
  let lo = 2;
  let hi = count; // the first ancestor that resolves is in [lo, hi], if any does
  let found = realOf(hi);
  if (found === null) return absolute; // nothing exists, not even the root: keep the lexical form
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const real = realOf(mid);
    if (real === null) lo = mid + 1;
    else (hi = mid), (found = real);
  }
  return hi === 0 ? found : join(found, absolute.slice(starts[count - hi]!));
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

/** The real path of `path` (every symlink resolved), or null when it does not exist or cannot be resolved. */
export function realPathOrNull(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

/**
 * The one path resolver every fs tool and the approval gate use (docs/approval.md "The normalized call";
 * checks F1–F4, X4 in docs/security-checks.md).
 * - `resolvePath`: absolute as given, else relative to the working directory.
 * - `canonicalizeForPolicy`: resolves `..` and the symlinks of the longest *existing* ancestor, then appends the
 *   not-yet-existing tail, so `link/new/dir/file` with `link -> /outside` canonicalizes to `/outside/new/dir/file`.
 * - `pathUnder`: whole-component prefix test (`/ws-evil` is not under `/ws`).
 * Limits: case-insensitive filesystems are handled by callers that compare components (see `componentEquals`);
 * a path can change between this check and the open (TOCTOU) — writers re-check the opened target.
 */
import { realpathSync } from 'node:fs';
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

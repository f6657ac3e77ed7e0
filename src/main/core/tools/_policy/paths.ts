/**
 * The path arguments of the tools (which argument names hold paths, how long a path may be), and the disk module's
 * one path resolver under the names the tools and the gate import (docs/approval.md "The normalized call"; the
 * resolver itself: src/main/core/disk/paths.ts, docs/guards.md "Canonical paths").
 */
export {
  canonicalBelow,
  canonicalizeForPolicy,
  displayPath,
  hasComponent,
  pathUnder,
  relativeInside,
  resolvePath,
} from '../../disk/paths';

/** Argument names whose string values are judged as paths by the guards (rules look at `path` only). */
export const PATH_ARG_KEYS = [
  'path',
  'file_path',
  'filePath',
  'paths',
  'source',
  'destination',
  'target',
  'old_path',
  'new_path',
] as const;

/** Every string value of the path-like arguments (arrays of strings included). */
export function pathArguments(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of PATH_ARG_KEYS) {
    const v = args[key];
    if (typeof v === 'string' && v !== '') out.push(v);
    else if (Array.isArray(v)) for (const item of v) if (typeof item === 'string' && item !== '') out.push(item);
  }
  return out;
}

/**
 * The longest path, in bytes, the system takes in one call: Linux's PATH_MAX (4,096 with its ending NUL), Windows'
 * long paths (32,767 characters). No file the tools could open has a longer one.
 */
export const MAX_PATH_BYTES = process.platform === 'win32' ? 32_767 : 4_095;

/**
 * Why argument `key` cannot be a path (`key: …`, a line of `invalidArgumentsText`), or null: longer than the
 * system takes. Asked of the arguments as sent, before they are normalized or judged: an 8 MB path cost its
 * normalization 0.5-0.7 s and the gate's guards 2.2 s more, with the process past 1.4 GB, for a call that could not
 * succeed (docs/guards.md "Canonical paths").
 */
export function overLongPathText(key: string, value: unknown): string | null {
  const values = Array.isArray(value) ? value : [value];
  for (const v of values) {
    if (typeof v !== 'string' || v.length * 3 <= MAX_PATH_BYTES) continue; // at most 3 bytes a UTF-16 unit: short enough
    const bytes = Buffer.byteLength(v);
    if (bytes > MAX_PATH_BYTES)
      return `${key}: the path is ${bytes} bytes; a path can be at most ${MAX_PATH_BYTES} bytes (the system's limit), so no file has this one.`;
  }
  return null;
}

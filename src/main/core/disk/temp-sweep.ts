/**
 * Start-up sweep of the temporary files `atomicWrite` leaves when the app dies mid-write (R3 keeps the target
 * whole; the `.name.skald-<12 hex>.tmp` beside it stays behind). Scoped to the workspace, the only place file
 * tools write (every write is checked to lie inside it), and to files that match that exact name pattern, are
 * regular files (never a symlink, never followed), and are older than this run (a write of the running app is
 * never touched). The walk is asynchronous, yields between folders and stops at `maxEntries`, so a large tree never
 * delays the first window.
 * Limits: the heavy folders the recursive tools skip (`node_modules`, `.git`, `.venv`, …) and `secrets` are not
 * walked, so a temp file a crashed write left inside one of them stays; a tree over `maxEntries` is swept in part
 * (the result says so).
 * Check ids (R3) are listed in docs/security-checks.md.
 */
import { lstat, opendir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SKIP_DIRS } from './walk';
import { TEMP_FILE_PATTERN } from './write';

export interface SweepResult {
  removed: string[];
  scanned: number;
  /** True when the walk stopped at `maxEntries` before the end. */
  isCut: boolean;
}

export interface SweepOptions {
  /** Files modified at or after this moment (ms) are left alone: they may belong to a write in progress. */
  olderThanMs: number;
  maxEntries?: number;
  signal?: AbortSignal;
}

export async function sweepStaleTempFiles(root: string, options: SweepOptions): Promise<SweepResult> {
  const max = options.maxEntries ?? 200_000;
  const result: SweepResult = { removed: [], scanned: 0, isCut: false };
  const stack = [root];
  while (stack.length > 0) {
    if (options.signal?.aborted) break;
    const dir = stack.pop()!;
    let handle;
    try {
      handle = await opendir(dir);
    } catch {
      continue; // gone or unreadable: nothing of ours to clean there
    }
    for await (const entry of handle) {
      if (++result.scanned > max) {
        result.isCut = true;
        return result; // leaving the for-await closes the handle
      }
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name.toLowerCase())) stack.push(full);
        continue;
      }
      if (!entry.isFile() || !TEMP_FILE_PATTERN.test(entry.name)) continue;
      try {
        const info = await lstat(full); // re-read: the entry may have been swapped meanwhile
        if (!info.isFile() || info.mtimeMs >= options.olderThanMs) continue;
        await unlink(full);
        result.removed.push(full);
      } catch {
        /* vanished or not ours to remove */
      }
    }
  }
  return result;
}

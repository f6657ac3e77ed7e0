/**
 * Writing a file, the one way every writer of the core does (docs/guards.md "One disk policy"):
 * - the target is a canonical path inside a canonical `root` (the working directory, the data folder, a cache);
 *   every folder below `root` is made or checked one component at a time, never through a symlink (`mkdirInside`);
 * - the bytes go to a fresh temp file beside the target (O_EXCL | O_NOFOLLOW, so it never follows a planted link),
 *   whose descriptor must be at the path it was made at (open.ts `isAtPath`: a folder swapped on the way is caught),
 *   are fsynced, the temp's place and the caller's own policy (`isStillAllowed`) are checked again, and the temp is
 *   renamed over the target: a crash leaves the old or the new file, never half of one (R3); a symlink or hard
 *   link at the target is replaced, never written through (F5, F6). After the rename the descriptor must be at the
 *   target; a folder swapped inside that one system call is reported, never silently accepted.
 * Limits: the rename resolves the folder's path once more; a swap between the last check and it (one system call
 * wide) can move the temp file, which holds our bytes only, and is reported by the check after it.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { DiskError, errnoOf } from './disk-error';
import { KIND_WORDS, kindOf } from './kinds';
import { closeQuietly, isAtPath } from './open';
import { pathUnder } from './paths';

/** The temporary file `atomicWrite` writes beside its target: `.<name>.skald-<12 hex>.tmp` (swept at start). */
export const TEMP_FILE_PATTERN = /^\..+\.skald-[0-9a-f]{12}\.tmp$/;
export const tempFileName = (name: string): string => `.${name}.skald-${randomBytes(6).toString('hex')}.tmp`;

export interface WriteTarget {
  /** Canonical absolute path of the file. */
  path: string;
  /** How sentences name it. */
  shown: string;
  /** Canonical folder the write stays inside; the folders below it are made or checked without following links. */
  root: string;
  /** The caller's policy asked again right before the rename (the target's folder may have changed meanwhile). */
  isStillAllowed?: (path: string) => boolean;
  /** Permission bits of a new file (an existing file keeps its own). */
  mode?: number;
  /** Permission bits of the folders made for it. */
  folderMode?: number;
  /**
   * false: the folder is not fsynced after the rename; the caller syncs each folder once after a batch of writes
   * (`syncFolder`), and must not count a write as durable before that (a rewind: docs/rewind.md "Restoring").
   */
  syncFolder?: boolean;
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * Makes `dir` (inside `root`) and every missing folder between them, one component at a time: an existing component
 * that is a symlink or not a folder is refused, so nothing is ever created through a link. `shown` names what the
 * folder is for in the sentence.
 */
export function mkdirInside(root: string, dir: string, shown: string, mode = 0o777): void {
  if (!isAbsolute(root) || !isAbsolute(dir) || dir.includes('\0') || !pathUnder(dir, root))
    throw new DiskError('outside', `${shown} is outside ${root}; refusing to write it.`);
  const rootInfo = lstatOrNull(root);
  if (!rootInfo?.isDirectory()) throw new DiskError('missing', `The folder ${root} for ${shown} does not exist.`);
  let current = root;
  let rel = '';
  for (const name of relative(root, dir).split(sep).filter(Boolean)) {
    current = join(current, name);
    rel = rel === '' ? name : `${rel}/${name}`;
    let info = lstatOrNull(current);
    if (!info) {
      try {
        mkdirSync(current, { mode });
      } catch (error) {
        if (errnoOf(error) !== 'EEXIST')
          throw new DiskError('unreadable', `Cannot create the folder for ${shown} (${errnoOf(error)}).`);
      }
      info = lstatOrNull(current);
    }
    if (!info) throw new DiskError('missing', `The folder ${rel} for ${shown} vanished while it was made.`);
    if (info.isSymbolicLink())
      throw new DiskError(
        'symlink',
        `${rel} is a symlink; ${shown} is written only into real folders, never through a link.`,
      );
    if (!info.isDirectory())
      throw new DiskError('not_file', `${rel} is ${KIND_WORDS[kindOf(info)]}, where ${shown} needs a folder.`);
  }
}

const swappedText = (shown: string) =>
  `Write refused: a folder on the way to ${shown} changed (swapped for a link) while writing.`;

/** Writes text (UTF-8) or bytes through temp file + fsync + rename in the same folder, making missing folders. */
export function atomicWrite(target: WriteTarget, content: string | Uint8Array): { created: boolean; bytes: number } {
  const { path, shown, root } = target;
  if (!isAbsolute(path) || !isAbsolute(root) || path.includes('\0') || !pathUnder(path, root) || path === root)
    throw new DiskError('outside', `${shown} is not a file inside ${root}; refusing to write it.`);
  const existing = lstatOrNull(path);
  if (existing?.isDirectory()) throw new DiskError('folder', `${shown} is a folder; name a file.`);
  if (existing && !existing.isFile() && !existing.isSymbolicLink())
    throw new DiskError(
      'not_file',
      `${shown} is ${KIND_WORDS[kindOf(existing)]}, not a regular file; refusing to replace it.`,
    );
  const dir = dirname(path);
  mkdirInside(root, dir, shown, target.folderMode);
  const temp = join(dir, tempFileName(basename(path)));
  const mode = existing?.isFile() ? existing.mode & 0o7777 : (target.mode ?? 0o666);
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  let fd: number | null = null;
  let renamed = false;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    const info = fstatSync(fd);
    if (!isAtPath(fd, info, temp)) throw new DiskError('swapped', swappedText(shown));
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
    // The folder could have been swapped for a symlink since: the temp must still be where it was made, and the
    // caller's policy must still allow the target.
    if (!isAtPath(fd, info, temp) || (target.isStillAllowed && !target.isStillAllowed(path)))
      throw new DiskError('swapped', swappedText(shown));
    renameSync(temp, path);
    renamed = true;
    if (!isAtPath(fd, info, path)) throw new DiskError('swapped', swappedText(shown));
    closeSync(fd);
    fd = null;
  } catch (error) {
    if (fd !== null) closeQuietly(fd);
    if (!renamed) {
      try {
        unlinkSync(temp);
      } catch {
        /* never created */
      }
    }
    if (error instanceof DiskError) throw error;
    throw new DiskError('unreadable', `Cannot write ${shown} (${errnoOf(error)}).`);
  }
  if (target.syncFolder !== false) syncFolder(dir);
  return { created: existing === null, bytes: data.length };
}

/** Makes the renames in a folder durable; best effort (not every platform can fsync a folder). */
export function syncFolder(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* ignore */
  }
}

/**
 * Removes one regular file inside `root` (a rewind taking back a file the agent created: docs/rewind.md), never
 * through a link: every folder below `root` must be a real folder (checked one component at a time), the target a
 * regular file (a link, FIFO or folder is refused, not removed), and the caller's policy is asked again right before
 * the unlink. Returns false when there was no file. Limit: as for `atomicWrite`, a folder swapped in the one system
 * call between the last check and the unlink is not caught; the unlink then removes a name, never a file's content
 * through a link.
 */
export function removeInside(
  target: Pick<WriteTarget, 'path' | 'shown' | 'root' | 'isStillAllowed' | 'syncFolder'>,
): boolean {
  const { path, shown, root } = target;
  if (!isAbsolute(path) || !isAbsolute(root) || path.includes('\0') || !pathUnder(path, root) || path === root)
    throw new DiskError('outside', `${shown} is not a file inside ${root}; refusing to remove it.`);
  const existing = lstatOrNull(path);
  if (!existing) return false;
  if (!existing.isFile())
    throw new DiskError('not_file', `${shown} is ${KIND_WORDS[kindOf(existing)]}, not a regular file; not removed.`);
  const dir = dirname(path);
  if (!lstatOrNull(dir)?.isDirectory()) return false;
  mkdirInside(root, dir, shown); // every folder exists: this only checks that none is a link
  if (target.isStillAllowed && !target.isStillAllowed(path)) throw new DiskError('swapped', swappedText(shown));
  const again = lstatOrNull(path);
  if (!again || again.ino !== existing.ino || again.dev !== existing.dev)
    throw new DiskError('swapped', `${shown} changed while it was being removed; left as it is.`);
  try {
    unlinkSync(path);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return false;
    throw new DiskError('unreadable', `Cannot remove ${shown} (${errnoOf(error)}).`);
  }
  if (target.syncFolder !== false) syncFolder(dir);
  return true;
}

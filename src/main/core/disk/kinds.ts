/**
 * What a path is, asked without ever opening it (docs/guards.md "One disk policy"): `stat`/`lstat` answer from the
 * inode, so a FIFO, a socket or a device is named, never read, and the question cannot block.
 */
import { lstatSync, statSync, type Stats } from 'node:fs';

/** What a stat answers (the type of node's `Stats`, for callers that do not import `node:fs`). */
export type FileInfo = Stats;

export type FileKind = 'file' | 'dir' | 'fifo' | 'socket' | 'device' | 'other';

export function kindOf(
  s: Pick<Stats, 'isFile' | 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>,
): FileKind {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'dir';
  if (s.isFIFO()) return 'fifo';
  if (s.isSocket()) return 'socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'device';
  return 'other';
}

/** How a sentence names a kind: "is a FIFO (named pipe)". */
export const KIND_WORDS: Record<FileKind, string> = {
  file: 'a file',
  dir: 'a folder',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  device: 'a device',
  other: 'not a regular file',
};

/** The stat of `path` (following a final symlink, or not), or null when nothing is there or it cannot be asked. */
export function statAt(path: string, follow: boolean): Stats | null {
  try {
    return (follow ? statSync(path, { throwIfNoEntry: false }) : lstatSync(path, { throwIfNoEntry: false })) ?? null;
  } catch {
    return null; // ENOTDIR, EACCES, ELOOP: nothing this caller can open there
  }
}

/** Kind of what `path` points at (a final symlink followed), or null when it does not exist. */
export function kindAt(path: string): FileKind | null {
  const info = statAt(path, true);
  return info ? kindOf(info) : null;
}

/** Size in bytes of what `path` names (not following a final symlink), or null when it does not exist. */
export function sizeAt(path: string): number | null {
  return statAt(path, false)?.size ?? null;
}

/** Writes closer together than this may share a file time: the kernel keeps them with a coarse clock. */
const FILE_TIME_TICK_MS = 50;

/**
 * What identifies a regular file's content without reading it: device, inode, size, and the modification and
 * status-change times in nanoseconds. The status-change time moves on every write and cannot be set back by a
 * program, so an equal stamp means the bytes were not written since, provided the stamp was taken well after the last
 * write: file times come from a coarse clock, so a second write within one tick could leave them as they were.
 * `key` is null while the file is that young (then its bytes must be read and compared). Null when it is not a
 * regular file. Take the stamp before reading the bytes, so a write in between makes the next stamp differ.
 */
export function fileStamp(real: string): { key: string | null; size: number } | null {
  try {
    const st = statSync(real, { bigint: true });
    if (!st.isFile()) return null;
    const settled = Date.now() - Number(st.ctimeMs) > FILE_TIME_TICK_MS;
    return {
      key: settled ? `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : null,
      size: Number(st.size),
    };
  } catch {
    return null;
  }
}

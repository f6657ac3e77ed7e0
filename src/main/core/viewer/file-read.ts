/**
 * Reading a file for the viewer without ever hanging (docs/viewer.md "Never a hang"):
 * - the open is O_NOFOLLOW | O_NONBLOCK and the opened handle is fstat-ed, so a FIFO, socket or device is
 *   refused before a single read (a FIFO with no writer would block a plain open or read forever);
 * - at most `limit` bytes are read: a 2 GB file costs one bounded read, and the caller learns the real size;
 * - the size and mtime are compared before and after the read; a file that changed meanwhile is read again, and
 *   after a few tries the caller gets `changed` (the watcher will reload it when it settles).
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { ViewerRefusal } from './read-policy';

export interface FileRead {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
  isTruncated: boolean;
}

const TRIES = 3;

function describe(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Size and mtime of a regular file, or a refusal saying what it is instead. */
export function statRegular(real: string, shown: string): Stats {
  let info: Stats;
  try {
    info = statSync(real);
  } catch (error) {
    throw openError(error, shown);
  }
  const what = describe(info);
  if (what)
    throw new ViewerRefusal('not_file', `${shown} is ${what}, not a regular file; the viewer only opens files.`);
  return info;
}

function openError(error: unknown, shown: string): ViewerRefusal {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new ViewerRefusal('missing', `${shown} does not exist (any more).`);
  if (code === 'ELOOP')
    return new ViewerRefusal('refused', `${shown} changed into a symlink; the viewer does not follow it.`);
  if (code === 'EISDIR') return new ViewerRefusal('not_file', `${shown} is a folder, not a file.`);
  if (code === 'EACCES' || code === 'EPERM')
    return new ViewerRefusal('unreadable', `${shown} cannot be read (permission denied).`);
  return new ViewerRefusal('unreadable', `${shown} cannot be opened (${code ?? String(error)}).`);
}

function readOnce(real: string, shown: string, limit: number): FileRead & { changed: boolean } {
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw openError(error, shown);
  }
  try {
    const before = fstatSync(fd);
    const what = describe(before);
    if (what)
      throw new ViewerRefusal('not_file', `${shown} is ${what}, not a regular file; the viewer only opens files.`);
    const want = Math.min(before.size, limit);
    const bytes = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, bytes, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    const after = fstatSync(fd);
    const changed = got !== want || after.size !== before.size || after.mtimeMs !== before.mtimeMs;
    return {
      bytes: got === want ? bytes : bytes.subarray(0, got),
      size: after.size,
      mtimeMs: after.mtimeMs,
      isTruncated: after.size > got,
      changed,
    };
  } finally {
    closeSync(fd);
  }
}

export function readForViewer(real: string, shown: string, limit: number): FileRead {
  for (let attempt = 1; ; attempt++) {
    const read = readOnce(real, shown, limit);
    if (!read.changed)
      return { bytes: read.bytes, size: read.size, mtimeMs: read.mtimeMs, isTruncated: read.isTruncated };
    if (attempt >= TRIES)
      throw new ViewerRefusal('changed', `${shown} kept changing while it was loading; it reloads once it settles.`);
  }
}

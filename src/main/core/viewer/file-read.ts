/**
 * Reading a file for the viewer (docs/viewer.md "Never a hang"), through the disk module as every reader of the core
 * (src/main/core/disk/open.ts, docs/guards.md "One disk policy"):
 * - no symlink on the path, regular files only: a FIFO, socket or device is refused before a single read (a FIFO with
 *   no writer would block a plain open or read forever);
 * - the identity checked on the opened descriptor: a folder on the way swapped for a link into `secrets/` (and
 *   swapped back) while the file is opened is refused, never served;
 * - a hard link to a guarded file (secrets/, the data folder's key file, database, …) is refused on the descriptor,
 *   also when the file was swapped for such a link after its handle was issued;
 * - at most `limit` bytes are read: a 2 GB file costs one bounded read, and the caller learns the real size;
 * - the size and mtime are compared before and after the read; a file that changed meanwhile is read again, and
 *   after a few tries the caller gets `changed` (the watcher will reload it when it settles).
 */
import { DiskError, type DiskErrorCode } from '../disk/disk-error';
import { readFile } from '../disk/open';
import type { GuardScope } from '../disk/protected';
import { ViewerRefusal } from './read-policy';

export interface FileRead {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
  /** Permission bits and type, from the opened descriptor. */
  mode: number;
  isTruncated: boolean;
}

const TRIES = 3;

const REFUSAL_OF: Record<DiskErrorCode, ViewerRefusal['code']> = {
  missing: 'missing',
  folder: 'not_file',
  not_file: 'not_file',
  symlink: 'refused',
  swapped: 'refused',
  guarded_link: 'refused',
  outside: 'refused',
  unreadable: 'unreadable',
};

/** A disk refusal in the viewer's words (the codes the renderer shows). */
export function viewerRefusalOf(error: unknown): unknown {
  if (!(error instanceof DiskError)) return error;
  const message =
    error.code === 'not_file'
      ? error.message.replace(/; refusing to read it\.$/, '; the viewer only opens files.')
      : error.message;
  return new ViewerRefusal(REFUSAL_OF[error.code], message);
}

/** The file's first `limit` bytes under the disk policy; a refusal (ViewerRefusal) says why not. */
export function readForViewer(real: string, shown: string, limit: number, guard: GuardScope): FileRead {
  for (let attempt = 1; ; attempt++) {
    let read;
    try {
      read = readFile({ path: real, shown, guard }, limit);
    } catch (error) {
      throw viewerRefusalOf(error);
    }
    if (!read.hasChanged)
      return {
        bytes: read.bytes,
        size: read.size,
        mtimeMs: read.mtimeMs,
        mode: read.mode,
        isTruncated: read.isTruncated,
      };
    if (attempt >= TRIES)
      throw new ViewerRefusal('changed', `${shown} kept changing while it was loading; it reloads once it settles.`);
  }
}

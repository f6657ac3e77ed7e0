/**
 * Opening a file to read it, the one way every reader of the core does (docs/guards.md "One disk policy"):
 * - the caller passes the canonical path its own policy judged (every symlink already resolved), so a symlink
 *   anywhere on it at open time is a swap, and is refused;
 * - what the path is gets asked first with `lstat` (a FIFO, socket or device is named, never opened), then the open
 *   is O_NOFOLLOW | O_NONBLOCK and the descriptor is `fstat`-ed: regular files only, and a FIFO swapped in between
 *   cannot block (no read is ever made of it);
 * - the identity is checked on the descriptor: it must be the file the path names now, reached through real folders
 *   only. On Linux the kernel's own name for the descriptor (`/proc/self/fd/N`) must be the path, and that answer is
 *   final: a walk of `lstat`s cannot overrule it, because each `lstat` resolves the folders above it anew, so a folder
 *   flipped to a link between two of them lets the walk see the real folder and then the linked file. Only where the
 *   kernel cannot be asked (no /proc, another system) is every component `lstat`-ed after the open, none may be a
 *   symlink, and the last must have the descriptor's device and inode (docs/guards.md names that walk's limit). A
 *   parent folder swapped for a link into `secrets/` and swapped back around the open is caught: the descriptor is
 *   then the secret, and the path names another file;
 * - with a `GuardScope`, a regular file of more than one link is judged by its identity (hardlinks.ts): a hard link
 *   to a guarded file is refused, on the descriptor, so a link swapped in after any earlier check is caught too.
 * Limits: a file renamed or deleted between the open and the identity check reads as swapped (the caller may retry).
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, type Stats } from 'node:fs';
import { isAbsolute, join, parse, sep } from 'node:path';
import { DiskError, errnoOf } from './disk-error';
import { identityVerdict } from './hardlinks';
import { KIND_WORDS, kindOf } from './kinds';
import { isGuardedPlace, secretWorkspaces, type GuardScope } from './protected';

export interface ReadTarget {
  /** The canonical absolute path to open: the caller's policy resolved and judged it. */
  path: string;
  /** How sentences name the file (relative to the working directory where it lies inside it). */
  shown: string;
  /** Whose guarded files a hard link must not reach; absent only for the app's own files and metadata never shown. */
  guard?: GuardScope | null;
  /**
   * A walk listed it as a regular file a moment ago (readdir's type): that answers what `lstat` would before the open,
   * and a tree search saves a third of its cost per file. The open itself follows no final symlink (O_NOFOLLOW) and
   * never waits on a FIFO (O_NONBLOCK); everything after the open is checked as for any path (the descriptor's fstat
   * refuses anything but a regular file).
   */
  isListedFile?: boolean;
  /**
   * The identity and the hard link are checked by the caller itself, with `isAtPath` and `isGuardedLink` on the still
   * open descriptor, before any byte read reaches an answer: the tree search (search-reader.ts), which reads thousands
   * of files to show a few, checks only the ones it shows.
   */
  checksIdentityLater?: boolean;
}

export interface OpenedFile {
  fd: number;
  info: Stats;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const PROC_FD = process.platform === 'linux' ? '/proc/self/fd/' : null;

/** The kernel's name of an open descriptor (Linux), or null where it cannot be asked. */
function descriptorPath(fd: number): string | null {
  if (PROC_FD === null) return null;
  try {
    return readlinkSync(`${PROC_FD}${fd}`);
  } catch {
    return null;
  }
}

/**
 * True when `info` (the descriptor's fstat) is the file `path` names now, every folder on the way a real folder:
 * the kernel's name of the descriptor where it can be asked, else one `lstat` per component.
 */
export function isAtPath(fd: number, info: Pick<Stats, 'dev' | 'ino'>, path: string): boolean {
  const kernelName = descriptorPath(fd);
  if (kernelName !== null) return kernelName === path;
  return isAtPathByWalk(info, path);
}

/**
 * The check where the kernel cannot name a descriptor: one `lstat` per component, none a symlink, the last with the
 * descriptor's device and inode. Racy by nature (see the file's comment); exported for its own tests.
 */
export function isAtPathByWalk(info: Pick<Stats, 'dev' | 'ino'>, path: string): boolean {
  const { root } = parse(path);
  const names = path.slice(root.length).split(sep).filter(Boolean);
  let current = root;
  for (let i = 0; i < names.length; i++) {
    current = join(current, names[i]!);
    let st: Stats | undefined;
    try {
      st = lstatSync(current, { throwIfNoEntry: false });
    } catch {
      return false;
    }
    if (!st || st.isSymbolicLink()) return false;
    const isLast = i === names.length - 1;
    if (!isLast && !st.isDirectory()) return false;
    if (isLast && (st.dev !== info.dev || st.ino !== info.ino)) return false;
  }
  return names.length > 0;
}

export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    /* already closed */
  }
}

/** The refusal for what `info` is when a regular file was wanted; null for a regular file. */
function notRegular(info: Stats, shown: string): DiskError | null {
  const kind = kindOf(info);
  if (kind === 'file') return null;
  if (kind === 'dir') return new DiskError('folder', `${shown} is a folder, not a file.`);
  return new DiskError('not_file', `${shown} is ${KIND_WORDS[kind]}, not a regular file; refusing to read it.`);
}

function openFailure(error: unknown, shown: string): DiskError {
  const code = errnoOf(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new DiskError('missing', `${shown} does not exist.`);
  if (code === 'ELOOP')
    return new DiskError('symlink', `${shown} changed into a symlink while being opened; refusing to follow it.`);
  if (code === 'EISDIR') return new DiskError('folder', `${shown} is a folder, not a file.`);
  if (code === 'ENXIO')
    return new DiskError('not_file', `${shown} is a socket, not a regular file; refusing to read it.`);
  if (code === 'EACCES' || code === 'EPERM')
    return new DiskError('unreadable', `${shown} cannot be read (permission denied).`);
  return new DiskError('unreadable', `${shown} cannot be opened (${code}).`);
}

/** What judges a regular file with other names: its device and inode, and its number of names. */
export type FileIdentity = Pick<Stats, 'dev' | 'ino' | 'nlink'>;

/** Whether `info` (a descriptor's fstat) is a hard link to a file the scope guards (hardlinks.ts). */
export function isGuardedLink(info: Stats, guard: GuardScope | null | undefined): boolean {
  return info.isFile() && isGuardedIdentity(info, guard);
}

/**
 * The same for the identity of a regular file read on a descriptor elsewhere (a search's worker thread, which leaves
 * this judgement to the calling thread: disk/search-reader.ts `confirmLeavingLinks`).
 */
export function isGuardedIdentity(id: FileIdentity, guard: GuardScope | null | undefined): boolean {
  return !!guard && identityVerdict(id, secretWorkspaces(guard), guard.protectedRoots) === 'guarded';
}

export const guardedPlaceText = (shown: string) =>
  `${shown} lies in a secrets/ folder or the app's data folder (a folder on its path was swapped); refusing to read it.`;

export const guardedLinkText = (shown: string) =>
  `${shown} is a hard link to a protected file (in a secrets/ folder or the app's data folder); refusing to read it.`;

/** Opens a regular file under the policy above; the caller closes `fd` (closeQuietly). Throws a DiskError. */
export function openRegular(target: ReadTarget): OpenedFile {
  const { path, shown } = target;
  if (!isAbsolute(path) || path.includes('\0'))
    throw new DiskError('outside', `${shown} is not an absolute path to a file; refusing to open it.`);
  if (!target.isListedFile) {
    let first: Stats | undefined;
    try {
      first = lstatSync(path, { throwIfNoEntry: false });
    } catch (error) {
      throw openFailure(error, shown);
    }
    if (!first) throw new DiskError('missing', `${shown} does not exist.`);
    if (first.isSymbolicLink())
      throw new DiskError(
        'symlink',
        `${shown} changed into a symlink after its path was checked; refusing to follow it.`,
      );
    const early = notRegular(first, shown);
    if (early) throw early;
  }
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    throw openFailure(error, shown);
  }
  try {
    const info = fstatSync(fd);
    const wrong = notRegular(info, shown);
    if (wrong) throw wrong;
    if (!target.checksIdentityLater && !isAtPath(fd, info, path))
      throw new DiskError(
        'swapped',
        `${shown} changed while it was being opened (a folder on its path was swapped); refusing to read it.`,
      );
    if (!target.checksIdentityLater && isGuardedLink(info, target.guard))
      throw new DiskError('guarded_link', guardedLinkText(shown));
    if (!target.checksIdentityLater && target.guard && isGuardedPlace(path, target.guard))
      throw new DiskError('guarded_link', guardedPlaceText(shown));
    return { fd, info };
  } catch (error) {
    closeQuietly(fd);
    throw error;
  }
}

export interface DiskRead {
  bytes: Buffer;
  /** The file's size after the read (may be more than `bytes` holds). */
  size: number;
  mtimeMs: number;
  mode: number;
  isTruncated: boolean;
  /** Size or time moved during the read: the bytes may mix two versions (the viewer reads again). */
  hasChanged: boolean;
}

/** Reads at most `maxBytes` of a regular file opened under the policy; throws a DiskError with a sentence. */
export function readFile(target: ReadTarget, maxBytes: number): DiskRead {
  const { fd, info: before } = openRegular(target);
  try {
    const want = Math.min(before.size, maxBytes);
    const bytes = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, bytes, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    const after = fstatSync(fd);
    return {
      bytes: got === want ? bytes : bytes.subarray(0, got),
      size: after.size,
      mtimeMs: after.mtimeMs,
      mode: after.mode,
      isTruncated: after.size > got,
      hasChanged: got !== want || after.size !== before.size || after.mtimeMs !== before.mtimeMs,
    };
  } catch (error) {
    if (error instanceof DiskError) throw error;
    throw new DiskError('unreadable', `${target.shown} cannot be read (${errnoOf(error)}).`);
  } finally {
    closeQuietly(fd);
  }
}

/** The UTF-8 text of a small regular file (metadata the policy itself reads: git's pointers, a cache's list). */
export function readText(target: ReadTarget, maxBytes: number): string {
  return readFile(target, maxBytes).bytes.toString('utf8');
}

/**
 * The SHA-256 of a whole regular file opened under the policy, read in chunks (a LaTeX document's inputs: images and
 * fonts can be large); throws a DiskError with a sentence.
 */
export function digestFile(target: ReadTarget): string {
  const { fd } = openRegular(target);
  try {
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(1024 * 1024);
    for (let at = 0; ; ) {
      const n = readSync(fd, chunk, 0, chunk.length, at);
      if (n === 0) break;
      hash.update(chunk.subarray(0, n));
      at += n;
    }
    return hash.digest('hex');
  } catch (error) {
    if (error instanceof DiskError) throw error;
    throw new DiskError('unreadable', `${target.shown} cannot be read (${errnoOf(error)}).`);
  } finally {
    closeQuietly(fd);
  }
}

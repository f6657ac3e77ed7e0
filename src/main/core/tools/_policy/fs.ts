/**
 * The policy-wrapped filesystem facade: with its neighbours in `_policy/` (search-reader.ts for tree searches), the
 * only modules of the tools that touch `node:fs` (check F10,
 * docs/security-checks.md). Every function takes a `GuardedPath` (already checked by `guard.ts`) or a canonical root,
 * never a raw model string.
 * - Reads open with O_NOFOLLOW | O_NONBLOCK and `fstat` the handle: a FIFO, socket or device is refused without
 *   blocking (F9), and a final component swapped into a symlink after the check fails the open.
 * - Writes go to a fresh temp file in the target's folder (O_EXCL, so it never follows a planted link), are
 *   fsynced, the folder's real path is re-checked, then renamed over the target: a crash leaves the old or the
 *   new file, never half of one (R3); a symlink or hard link at the target is replaced, never written through
 *   (F5, F6).
 * - `walk` never follows a directory symlink out of the root, skips SKIP_DIRS (with `secrets`), ends on loops.
 * - A multi-link regular file that is a guarded file under another name (hardlinks.ts) is refused on open.
 * Limits: a directory in the middle of the path swapped for a symlink between the re-check and the rename can
 * still race; the window is one syscall wide.
 */
import {
  constants,
  closeSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { readQuotedPath } from '../../../../shared/shown-path';
import { ToolError } from '../define-tool';
import { recheckWriteTarget, SECRETS_DIR, type GuardedPath, type PathContext } from './guard';
import { hardLinkVerdict, hardLinkVerdictAt } from './hardlinks';
import { hasComponent, pathUnder, relativeInside } from './paths';
import { decodeText, describeEncoding, textEncodingOf, type TextEncoding } from './text-bytes';

/**
 * Folders the recursive tools never descend into: VCS, dependency, build and virtualenv folders are noise; `secrets`
 * is the one that matters (docs/approval.md "Walks skip what is protected").
 */
export const SKIP_DIRS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  SECRETS_DIR,
  'target',
  '__pycache__',
  '.venv',
  '.hg',
  '.svn',
]);

/** The temporary file `atomicWrite` writes beside its target: `.<name>.skald-<12 hex>.tmp` (swept at start). */
export const TEMP_FILE_PATTERN = /^\..+\.skald-[0-9a-f]{12}\.tmp$/;
export const tempFileName = (name: string): string => `.${name}.skald-${randomBytes(6).toString('hex')}.tmp`;

/** Files larger than this are not loaded whole for editing (the model should use line tools or the shell). */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

export type FileKind = 'file' | 'dir' | 'fifo' | 'socket' | 'device' | 'other';

function kindOf(s: Stats): FileKind {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'dir';
  if (s.isFIFO()) return 'fifo';
  if (s.isSocket()) return 'socket';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'device';
  return 'other';
}

const KIND_WORDS: Record<FileKind, string> = {
  file: 'a file',
  dir: 'a folder',
  fifo: 'a FIFO (named pipe)',
  socket: 'a socket',
  device: 'a device',
  other: 'not a regular file',
};

/** Size in bytes of what `path` names (not following a final symlink), or null when it does not exist. */
export function sizeAt(path: string): number | null {
  try {
    return lstatSync(path).size;
  } catch {
    return null;
  }
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

/** Kind of what `real` points at, or null when it does not exist. */
export function kindAt(real: string): FileKind | null {
  try {
    return kindOf(statSync(real));
  } catch {
    return null;
  }
}

/**
 * The error for a path that names nothing. A result shows an odd name as a JSON string (docs/tools.md "Names in
 * results"); a model that passes it back quotes and all is told what the quotes stand for.
 */
export function doesNotExist(g: GuardedPath, advice = 'Check the path (list_files shows what is there).'): string {
  // The call's path is already made absolute (docs/approval.md "The normalized call"): look at what follows the folder.
  const at = g.input.indexOf('"');
  const tail = at === 0 || g.input[at - 1] === '/' ? g.input.slice(at) : '';
  const quoted = readQuotedPath(tail);
  const hint =
    quoted && quoted.length === tail.length
      ? ` A quoted name in a tool's result is a JSON string: pass the name itself, ${JSON.stringify(quoted.path)} as a JSON string, without the outer quotes.`
      : '';
  return `${g.display} does not exist. ${advice}${hint}`;
}

export function requireKind(g: GuardedPath, wanted: 'file' | 'dir'): void {
  const kind = kindAt(g.real);
  if (kind === null) throw new ToolError(doesNotExist(g));
  if (kind !== wanted)
    throw new ToolError(
      `${g.display} is ${KIND_WORDS[kind]}, not ${wanted === 'file' ? 'a regular file' : 'a folder'}.`,
    );
}

export interface CappedRead {
  bytes: Buffer;
  size: number;
  isTruncated: boolean;
}

/** Reads at most `maxBytes` of a regular file; refuses FIFOs/devices after fstat of the opened handle. */
export function readCapped(g: GuardedPath, maxBytes: number): CappedRead {
  let fd: number;
  try {
    fd = openSync(g.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new ToolError(doesNotExist(g));
    if (code === 'ELOOP')
      throw new ToolError(`${g.display} changed into a symlink while being opened; refusing to follow it.`);
    if (code === 'EISDIR') throw new ToolError(`${g.display} is a folder; use list_files for folders.`);
    throw new ToolError(`${g.display} cannot be opened (${code ?? String(error)}).`);
  }
  try {
    const info = fstatSync(fd);
    const kind = kindOf(info);
    if (kind === 'dir') throw new ToolError(`${g.display} is a folder; use list_files for folders.`);
    if (kind !== 'file')
      throw new ToolError(`${g.display} is ${KIND_WORDS[kind]}, not a regular file; refusing to read it.`);
    // Judged on the opened handle, so a link swapped in after the path check is still caught.
    if (hardLinkVerdict(info, g.root, g.protectedRoots ?? []) === 'guarded')
      throw new ToolError(hardLinkRefusal(g.display));
    const want = Math.min(info.size, maxBytes);
    const bytes = Buffer.allocUnsafe(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, bytes, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return { bytes: got === want ? bytes : bytes.subarray(0, got), size: info.size, isTruncated: info.size > got };
  } finally {
    closeSync(fd);
  }
}

const hardLinkRefusal = (display: string) =>
  `Access denied: ${display} is a hard link to a protected file (in a secrets/ folder or the app's data folder), which no tool may read.`;

/** For the search tools: true when a file they found is a hard link to a guarded file (it is skipped). */
export function isGuardedHardLink(path: string, g: GuardedPath): boolean {
  return hardLinkVerdictAt(path, g.root, g.protectedRoots ?? []) === 'guarded';
}

/**
 * The text a whole-file write would replace, for its approval card's diff: decoded whatever its encoding (UTF-16
 * too); null for a binary file or one over MAX_EDIT_BYTES (the card then shows the file as new).
 */
export function readTextForPreview(g: GuardedPath): { text: string; encoding: TextEncoding } | null {
  const read = readCapped(g, MAX_EDIT_BYTES + 1);
  if (read.isTruncated || read.size > MAX_EDIT_BYTES) return null;
  return decodeText(read.bytes);
}

/**
 * The whole text of a regular file for an edit; refuses binaries, files over MAX_EDIT_BYTES, and UTF-16 text (the
 * edits write UTF-8, which would change every byte of it). A UTF-8 BOM stays in the text, so the file keeps it.
 */
export function readTextForEdit(g: GuardedPath): string {
  const read = readCapped(g, MAX_EDIT_BYTES + 1);
  if (read.isTruncated || read.size > MAX_EDIT_BYTES)
    throw new ToolError(
      `${g.display} is ${read.size} bytes, over the ${MAX_EDIT_BYTES}-byte edit limit; edit it with execute_cmd instead.`,
    );
  const encoding = textEncodingOf(read.bytes);
  if (encoding === null) throw new ToolError(`${g.display} is a binary file; text edits would corrupt it.`);
  if (encoding === 'utf16le' || encoding === 'utf16be') {
    throw new ToolError(
      `${g.display} is ${describeEncoding(encoding)} text; the edit tools write UTF-8, which would change every byte of it. Convert it first (execute_cmd: iconv -f UTF-16 -t UTF-8), or rewrite it whole with write_file.`,
    );
  }
  return read.bytes.toString('utf8');
}

/** Writes text (UTF-8) or bytes through temp file + fsync + rename in the same folder. Creates missing parent folders. */
export function atomicWrite(
  g: GuardedPath,
  content: string | Uint8Array,
  ctx: PathContext,
): { created: boolean; bytes: number } {
  const dir = dirname(g.real);
  let existing: Stats | null = null;
  try {
    existing = lstatSync(g.real);
  } catch {
    existing = null;
  }
  if (existing?.isDirectory()) throw new ToolError(`${g.display} is a folder; name a file.`);
  if (existing && !existing.isFile() && !existing.isSymbolicLink())
    throw new ToolError(`${g.display} is not a regular file; refusing to replace it.`);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new ToolError(
      `Cannot create the folder for ${g.display} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    );
  }
  const temp = join(dir, tempFileName(basename(g.real)));
  const mode = existing?.isFile() ? existing.mode & 0o7777 : 0o666;
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  let fd: number | null = null;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    // The folder could have been swapped for a symlink since the guard ran: re-check right before the rename.
    if (!recheckWriteTarget(g.real, ctx) || !pathUnder(realpathSync.native(dir), g.root)) {
      throw new ToolError(
        `Write refused: the folder of ${g.display} changed to point outside the workspace while writing.`,
      );
    }
    renameSync(temp, g.real);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      /* already renamed or never created */
    }
    if (error instanceof ToolError) throw error;
    throw new ToolError(`Cannot write ${g.display} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  syncDir(dir);
  return { created: existing === null, bytes: data.length };
}

/** Makes the rename itself durable; best effort (not every platform can fsync a folder). */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* ignore */
  }
}

export interface WalkEntry {
  /** `/`-separated, relative to the walk root. */
  rel: string;
  /** The real path to open (for a followed symlink, its target). */
  path: string;
  kind: 'file' | 'dir' | 'other';
  isSymlink: boolean;
  /** A symlink that leads outside the root, into secrets, into a loop, or nowhere: listed, never followed. */
  isBlocked: boolean;
  depth: number;
  /** A name that is not valid UTF-8: no path string opens it (see isUnopenableName); listed as kind 'other'. */
  isUnopenable?: true;
}

export interface WalkOptions {
  recursive: boolean;
  maxDepth?: number;
  /** Also descend into SKIP_DIRS other than `secrets` (which is always skipped). */
  includeSkipped?: boolean;
  /** Never resolve symlinks: yield them as blocked (grep_files, to match ripgrep's default). */
  noFollow?: boolean;
  /** Entries (by the path `walk` would open) to leave out entirely, a folder not entered: what the rules protect. */
  skip?: (path: string) => boolean;
}

const REPLACEMENT_CHAR = '\uFFFD';

/**
 * Whether a path names a file by a name that is not valid UTF-8 (docs/tools.md "Names in results"). Node reads such a
 * name with U+FFFD in place of each bad byte, and that string names no file, so nothing can open it: the walk lists
 * it as such and grep_files leaves it out of its answer. (A valid name may hold U+FFFD itself: then the file is there.)
 */
export function isUnopenableName(path: string): boolean {
  return path.includes(REPLACEMENT_CHAR) && lstatSync(path, { throwIfNoEntry: false }) === undefined;
}

/**
 * Depth-first, name-sorted. Directory symlinks are followed only when their real path is inside `root`, not in
 * a secrets folder and not already visited (so loops end); everything else is yielded as blocked.
 */
export function* walk(root: string, options: WalkOptions): Generator<WalkEntry> {
  const visited = new Set<string>([root]);
  const stack: { dir: string; rel: string; depth: number }[] = [{ dir: root, rel: '', depth: 0 }];
  while (stack.length > 0) {
    const { dir, rel, depth } = stack.pop()!;
    let names;
    try {
      names = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skip it rather than fail the whole walk
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: { dir: string; rel: string; depth: number }[] = [];
    for (const d of names) {
      const lower = d.name.toLowerCase();
      const childRel = rel === '' ? d.name : `${rel}/${d.name}`;
      // `dir` is already a normalized absolute path and a name holds no `/`: plain concatenation is `join`'s result
      // without its normalizing pass (a tenth of a big listing's time).
      const full = dir.endsWith('/') ? `${dir}${d.name}` : `${dir}/${d.name}`;
      if (lower === SECRETS_DIR) continue;
      let entry: WalkEntry;
      if (d.name.includes(REPLACEMENT_CHAR) && isUnopenableName(full)) {
        entry = {
          rel: childRel,
          path: full,
          kind: 'other',
          isSymlink: false,
          isBlocked: false,
          depth: depth + 1,
          isUnopenable: true,
        };
      } else if (d.isSymbolicLink()) {
        entry = options.noFollow
          ? { rel: childRel, path: full, kind: 'other', isSymlink: true, isBlocked: true, depth: depth + 1 }
          : followLink(full, childRel, root, visited, depth + 1);
      } else {
        entry = {
          rel: childRel,
          path: full,
          kind: d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other',
          isSymlink: false,
          isBlocked: false,
          depth: depth + 1,
        };
      }
      if (options.skip?.(entry.path)) continue;
      yield entry;
      const skipped = SKIP_DIRS.has(lower) && !options.includeSkipped;
      if (
        entry.kind === 'dir' &&
        !entry.isBlocked &&
        !skipped &&
        options.recursive &&
        (options.maxDepth === undefined || depth + 1 < options.maxDepth)
      ) {
        subdirs.push({ dir: entry.path, rel: childRel, depth: depth + 1 });
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
}

function followLink(full: string, rel: string, root: string, visited: Set<string>, depth: number): WalkEntry {
  const blocked: WalkEntry = { rel, path: full, kind: 'other', isSymlink: true, isBlocked: true, depth };
  let target: string;
  let info: Stats;
  try {
    target = realpathSync.native(full);
    info = statSync(target);
  } catch {
    return blocked; // dangling link or a loop the kernel refused (ELOOP)
  }
  const inside = relativeInside(target, root);
  if (inside === null || hasComponent(inside, SECRETS_DIR)) return blocked;
  if (info.isDirectory()) {
    if (visited.has(target)) return { ...blocked, kind: 'dir' };
    visited.add(target);
    return { rel, path: target, kind: 'dir', isSymlink: true, isBlocked: false, depth };
  }
  return { rel, path: target, kind: info.isFile() ? 'file' : 'other', isSymlink: true, isBlocked: false, depth };
}

/** For execute_cmd's `workdir`: an existing folder, by its real path. */
export function realDirectory(path: string): string | null {
  try {
    const real = realpathSync.native(path);
    return statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/**
 * The file tools' face of the disk policy (src/main/core/disk/, docs/guards.md "One disk policy"): every function
 * takes a `GuardedPath` (already checked by `guard.ts`) or a canonical root, never a raw model string, and every
 * open, write and walk is the disk module's; what it refuses becomes a `ToolError` whose sentence the model reads.
 * - Reads: no symlink in any component, regular files only (a FIFO, socket or device is refused without blocking,
 *   F9), the identity checked on the opened descriptor, and a hard link to a guarded file refused on it (F6).
 * - Writes: temp file + fsync + rename, no folder made or written through a link, the guard's own check run again
 *   right before the rename (F5, F6, R3).
 * - `writeOutputFile`: the files the app itself names in the working directory (an MCP result's media, generated
 *   images) go through the same guard and writer, and never through a symlinked output folder.
 * - `walk` (disk/walk.ts) never follows a directory symlink out of the root, skips SKIP_DIRS (with `secrets`).
 */
import { join } from 'node:path';
import { readQuotedPath } from '../../../../shared/shown-path';
import { DiskError } from '../../disk/disk-error';
import { hardLinkVerdictAt } from '../../disk/hardlinks';
import { KIND_WORDS, kindAt } from '../../disk/kinds';
import { readFile, type ReadTarget } from '../../disk/open';
import { canonicalRoot, secretWorkspaces } from '../../disk/protected';
import { atomicWrite as diskWrite } from '../../disk/write';
import { ToolError } from '../define-tool';
import { guardWrite, recheckWriteTarget, type GuardedPath, type PathContext } from './guard';
import { decodeText, describeEncoding, textEncodingOf, type TextEncoding } from './text-bytes';

export { fileStamp, kindAt, sizeAt, type FileKind } from '../../disk/kinds';
export { isUnopenableName, realDirectory, SKIP_DIRS, walk, type WalkEntry, type WalkOptions } from '../../disk/walk';
export { TEMP_FILE_PATTERN, tempFileName } from '../../disk/write';

/** Files larger than this are not loaded whole for editing (the model should use line tools or the shell). */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

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

/** What the disk module is asked to open for a guarded path: its hard links judged against the tools' guard. */
const readTarget = (g: GuardedPath): ReadTarget => ({ path: g.real, shown: g.display, guard: g.scope });

/** A disk refusal of a read as the tools word it. */
function toolError(error: unknown, g: GuardedPath): unknown {
  if (!(error instanceof DiskError)) return error;
  if (error.code === 'missing') return new ToolError(doesNotExist(g));
  if (error.code === 'folder') return new ToolError(`${g.display} is a folder; use list_files for folders.`);
  if (error.code === 'guarded_link')
    return new ToolError(
      `Access denied: ${g.display} is a hard link to a protected file (in a secrets/ folder or the app's data folder), which no tool may read.`,
    );
  return new ToolError(error.message);
}

export interface CappedRead {
  bytes: Buffer;
  size: number;
  isTruncated: boolean;
}

/** Reads at most `maxBytes` of a regular file under the disk policy (disk/open.ts). */
export function readCapped(g: GuardedPath, maxBytes: number): CappedRead {
  try {
    const read = readFile(readTarget(g), maxBytes);
    return { bytes: read.bytes, size: read.size, isTruncated: read.isTruncated };
  } catch (error) {
    throw toolError(error, g);
  }
}

/** For the search tools: true when a file they found is a hard link to a guarded file (it is skipped). */
export function isGuardedHardLink(path: string, g: GuardedPath): boolean {
  return hardLinkVerdictAt(path, secretWorkspaces(g.scope), g.scope.protectedRoots) === 'guarded';
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

/** Writes text (UTF-8) or bytes through the disk module's atomic writer, the guard asked again before the rename. */
export function atomicWrite(
  g: GuardedPath,
  content: string | Uint8Array,
  ctx: PathContext,
): { created: boolean; bytes: number } {
  try {
    return diskWrite(
      { path: g.real, shown: g.display, root: g.root, isStillAllowed: (path) => recheckWriteTarget(path, ctx) },
      content,
    );
  } catch (error) {
    if (error instanceof DiskError && error.code === 'swapped')
      throw new ToolError(
        `Write refused: the folder of ${g.display} changed to point outside the workspace while writing.`,
      );
    throw error instanceof DiskError ? new ToolError(error.message) : error;
  }
}

/**
 * Writes a file the app itself names (`parts`: an output folder's names, then the file's) under the working
 * directory: an MCP result's media (`mcp-output/<server>/…`), a generated image (`images/…`). The guard judges it as
 * any write (never into the data folder, `secrets/`, `.git/hooks`, …), and a symlink anywhere below the working
 * directory is refused rather than followed: the app chose a plain folder name, so a link there was planted.
 */
export function writeOutputFile(parts: readonly string[], content: Uint8Array, ctx: PathContext): GuardedPath {
  const lexical = join(canonicalRoot(ctx.workingDir), ...parts);
  const g = guardWrite(lexical, ctx);
  if (g.real !== lexical)
    throw new ToolError(
      `Write refused: ${parts.slice(0, -1).join('/')} leads elsewhere through a symlink (${g.real}); output is written only into real folders.`,
    );
  atomicWrite(g, content, ctx);
  return g;
}

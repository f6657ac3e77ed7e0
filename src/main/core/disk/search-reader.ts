/**
 * Reading the files of a tree search (grep_files' JS engine and its worker threads), opened by the disk module as every
 * reader opens (disk/open.ts: regular files only), with a size cap, binary files skipped after their head, and text
 * given as UTF-8 bytes whatever its encoding (text-bytes.ts), as ripgrep searches it.
 * The identity on the descriptor (no symlink on the path, the file the path names now) and, with a scope, the hard
 * link to a guarded file are checked by `confirm`, for the files whose bytes reach an answer only: a search reads
 * thousands of files to show a few, the kernel's name of a descriptor costs as much again as the open, and where
 * every file has several links (a package store's hard links) each was judged against the guarded files (a tree
 * search ran at half its speed). The descriptor of the last read stays open until `confirm`, `release` or the next
 * read, so the checks are on what was read. A worker thread of the search confirms with `confirmLeavingLinks`: a file
 * with other names goes back with its descriptor's identity, which the calling thread judges against the guarded files.
 */
import { readSync, type Stats } from 'node:fs';
import { resolve, sep } from 'node:path';
import { closeQuietly, isAtPath, isGuardedLink, openRegular, type FileIdentity } from './open';
import { isGuardedPlace, SECRETS_DIR, type GuardScope } from './protected';
import { BINARY_SNIFF_BYTES, textEncodingOf, utf8TextBytes, type TextEncoding } from './text-bytes';

/**
 * How much of a file a search takes as text, where that can be a leading part of it (grep_files follows ripgrep's
 * rule: tools/fs/grep-binary.ts). Without one, a NUL in the first 8 KB makes a file binary, and any other file is
 * text whole.
 */
export interface TextExtent {
  /** How much of the file's head is read first, to judge. */
  headBytes: number;
  /** Leading bytes searched, judged from the head: a number (0: binary), or null to read the whole file first. */
  fromHead(head: Uint8Array, size: number): number | null;
  /** Leading bytes searched of the whole file (0: binary). */
  fromWhole(bytes: Uint8Array): number;
}

const isUtf16Mark = (b: Uint8Array) =>
  b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));

/**
 * Whole content of a regular file found by `walk`, for searching; null for non-files and files over `max`.
 * Speed: the bytes land in one reused scratch buffer (allocating a fresh buffer per file was half the cost of a
 * tree search), so the result is a view that is only valid until the next call — decode or copy it at once.
 */
export class SearchReader {
  private scratch = Buffer.allocUnsafe(256 * 1024);

  /** The last file read, still open for `confirm`. */
  private last: { fd: number; info: Stats; path: string } | null = null;

  /** `guard`: the scope whose guarded files a hard link must not reach (null: the caller skips those by itself). */
  constructor(private readonly guard: GuardScope | null = null) {}

  /**
   * Whether the bytes last read came from the file their path names now, reached through real folders only (a folder
   * swapped for a link into `secrets/` while it was opened: false), and are no guarded file's under a second name.
   * Asked before any of them reaches an answer; it ends the read.
   */
  confirm(): boolean {
    const last = this.last;
    const isThere = this.confirmed() !== false && !(last && isGuardedLink(last.info, this.guard));
    this.release();
    return isThere;
  }

  /**
   * As `confirm`, except that a file with other names is not judged against the guarded files here: its identity is
   * returned, for the caller to judge (`isGuardedIdentity`) with the guarded files it knows. A worker thread of the
   * search confirms so: judging there would cost each worker its own walk of the workspace (disk/hardlinks.ts), and
   * sending the file back to be read again cost a tree of hard links (a package store) its whole search twice. The
   * identity is the descriptor's the bytes came from, so judging it later is judging what was read. False when the
   * bytes are not the file's the path names now; true when it is, with no other name.
   */
  confirmLeavingLinks(): FileIdentity | boolean {
    const answer = this.confirmed();
    this.release();
    return answer;
  }

  /** The checks of `confirm` but the hard link: false, true, or the identity of a file with other names. */
  private confirmed(): FileIdentity | boolean {
    const last = this.last;
    if (!last) return false;
    const isThere =
      isAtPath(last.fd, last.info, last.path) &&
      !(this.guard && this.mayBeGuardedPlace(last.path, this.guard) && isGuardedPlace(last.path, this.guard));
    if (!isThere) return false;
    const { dev, ino, nlink } = last.info;
    return nlink > 1 ? { dev, ino, nlink } : true;
  }

  /** The protected roots as `mayBeGuardedPlace` compares them (resolved once per reader). */
  private rootPrefixes: string[] | null = null;

  /**
   * Whether `isGuardedPlace` could say yes for `path`: only a path with a `secrets` component (which its text then
   * holds, in any case) or one inside a protected root (which it then starts with, for a canonical absolute path) can.
   * The full check compares the path with every workspace and root by `path.relative`: a quarter of confirming the
   * hits of a whole answer of ripgrep (735 files), where none of them could be in such a place. A path not in the
   * canonical form this reasoning needs (absolute, `/`-separated, no `.`, `..` or empty component) gets the full check.
   */
  private mayBeGuardedPlace(path: string, guard: GuardScope): boolean {
    if (sep !== '/' || !path.startsWith('/') || /\/\.{0,2}(?:\/|$)/.test(path)) return true;
    if (path.toLowerCase().includes(SECRETS_DIR)) return true;
    this.rootPrefixes ??= guard.protectedRoots.map((root) => resolve(root));
    return this.rootPrefixes.some((root) => root === '/' || path === root || path.startsWith(`${root}/`));
  }

  /**
   * Whether `path` names, now, a regular file reached through real folders that is no guarded file under a second name:
   * for a hit whose name or count is shown but whose bytes another reader (ripgrep) read.
   */
  isThere(path: string): boolean {
    this.release();
    try {
      const { fd, info } = openRegular({
        path,
        shown: path,
        guard: this.guard,
        isListedFile: true,
        checksIdentityLater: true,
      });
      this.last = { fd, info, path };
    } catch {
      return false;
    }
    return this.confirm();
  }

  /**
   * Opens `path` (as `read` does, identity checked by `confirm`) for reads at positions (`at`), reading nothing yet:
   * for checking the few lines another reader (ripgrep) printed of a big file without reading all of it. Returns the
   * file's size, or null when it cannot be opened or is over `max`.
   */
  openForReads(path: string, max: number): number | null {
    this.release();
    let opened: { fd: number; info: Stats };
    try {
      opened = openRegular({ path, shown: path, guard: this.guard, isListedFile: true, checksIdentityLater: true });
    } catch {
      return null;
    }
    if (opened.info.size > max) {
      closeQuietly(opened.fd);
      return null;
    }
    this.last = { ...opened, path };
    this.isPlainHead = null;
    return opened.info.size;
  }

  /** Whether the file `openForReads` opened starts plainly (`headIsPlainUtf8`); null until known. */
  private isPlainHead: boolean | null = null;

  /**
   * Whether the file `openForReads` opened is UTF-8 without a byte-order mark by its first bytes (text-bytes.ts), so
   * its bytes are the text ripgrep searched, offset for offset (rg decodes UTF-16 and leaves a UTF-8 BOM out).
   */
  headIsPlainUtf8(): boolean {
    if (this.isPlainHead === null) {
      const head = this.at(0, 3);
      this.isPlainHead = head !== null && textEncodingOf(head) === 'utf8';
    }
    return this.isPlainHead;
  }

  /**
   * The bytes `from`–`to` of the file `openForReads` opened (fewer at its end), as a view valid until the next read;
   * null when none is open or it cannot be read.
   */
  at(from: number, to: number): Buffer | null {
    if (!this.last) return null;
    if (to - from > this.scratch.length) this.scratch = Buffer.allocUnsafe(to - from);
    try {
      let got = 0;
      while (got < to - from) {
        const n = readSync(this.last.fd, this.scratch, got, to - from - got, from + got);
        if (n === 0) break;
        got += n;
      }
      const bytes = this.scratch.subarray(0, got);
      if (from === 0) this.isPlainHead = textEncodingOf(bytes.subarray(0, 3)) === 'utf8';
      return bytes;
    } catch {
      return null;
    }
  }

  /** Ends the last read without a check (its bytes reach no answer). */
  release(): void {
    if (this.last) closeQuietly(this.last.fd);
    this.last = null;
  }

  /** Whether the last `read` gave only a leading part of the file (a NUL past its head, by a `TextExtent`). */
  wasCut = false;

  /**
   * The file's bytes (`path` as `walk` listed it: a regular file by its type), or null when it cannot be read, is over
   * `max`, or (with `textOnly`) looks binary: then only its head is read, as ripgrep does, so a tree full of large
   * binaries costs what their heads cost. With `textOnly`, the text's UTF-8 bytes: a BOM left out, UTF-16 decoded
   * (text-bytes.ts); with an `extent` too, its rule decides how much of a file without a UTF-16 byte-order mark is text.
   */
  read(path: string, max: number, textOnly = false, extent?: TextExtent): Buffer | null {
    this.release();
    this.wasCut = false;
    let fd: number;
    let info: Stats;
    try {
      // No symlink is followed while searching: walk and ripgrep both skip them, and `confirm` refuses a swap.
      ({ fd, info } = openRegular({
        path,
        shown: path,
        guard: this.guard,
        isListedFile: true,
        checksIdentityLater: true,
      }));
    } catch {
      return null;
    }
    let isKept = false;
    try {
      if (info.size > max) return null;
      if (info.size > this.scratch.length)
        this.scratch = Buffer.allocUnsafe(Math.min(max, Math.max(info.size, this.scratch.length * 2)));
      let got = 0;
      let upTo = info.size; // how much of the file is read
      let encoding: TextEncoding | null = 'utf8';
      let byExtent = false;
      if (textOnly) {
        const head = Math.min(info.size, extent?.headBytes ?? BINARY_SNIFF_BYTES);
        got = this.fill(fd, 0, head);
        const sniffed = this.scratch.subarray(0, got);
        byExtent = extent !== undefined && !isUtf16Mark(sniffed);
        if (byExtent) {
          const decided = extent!.fromHead(sniffed, info.size);
          if (decided === 0) return null;
          if (decided !== null) upTo = Math.min(got, decided);
        } else {
          encoding = textEncodingOf(sniffed);
          if (encoding === null) return null;
        }
      }
      if (got < upTo) got = this.fill(fd, got, upTo);
      let read = this.scratch.subarray(0, Math.min(got, upTo));
      if (byExtent) {
        if (upTo === info.size) read = read.subarray(0, extent!.fromWhole(read));
        if (read.length === 0 && info.size > 0) return null;
        this.wasCut = read.length < info.size;
        encoding = textEncodingOf(read.subarray(0, 3)) === 'utf8-bom' ? 'utf8-bom' : 'utf8';
      }
      // UTF-16 and a UTF-8 BOM: the text as UTF-8 bytes, as ripgrep searches it (text-bytes.ts).
      const bytes = encoding === 'utf8' ? read : encoding === 'utf8-bom' ? read.subarray(3) : utf8TextBytes(read);
      if (bytes === null) return null;
      this.last = { fd, info, path };
      isKept = true;
      return bytes;
    } catch {
      return null;
    } finally {
      if (!isKept) closeQuietly(fd);
    }
  }

  /** Reads the file's bytes from `from` to `to` into the scratch buffer; returns where it got (`to`, or the end). */
  private fill(fd: number, from: number, to: number): number {
    let got = from;
    while (got < to) {
      const n = readSync(fd, this.scratch, got, to - got, got);
      if (n === 0) break;
      got += n;
    }
    return got;
  }
}

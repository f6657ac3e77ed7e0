/**
 * Reading the files of a tree search (grep_files' JS engine and its worker threads), through the policy facade's
 * rules: no symlink followed, regular files only, a size cap, binary files skipped after their head, and text given
 * as UTF-8 bytes whatever its encoding (text-bytes.ts), as ripgrep searches it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
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
  /** Whether the last `read` gave only a leading part of the file (a NUL past its head, by a `TextExtent`). */
  wasCut = false;

  /**
   * The file's bytes, or null when it cannot be read, is over `max`, or (with `textOnly`) looks binary: then only
   * its head is read, as ripgrep does, so a tree full of large binaries costs what their heads cost. With
   * `textOnly`, the text's UTF-8 bytes: a BOM left out, UTF-16 decoded (text-bytes.ts); with an `extent` too, its
   * rule decides how much of a file without a UTF-16 byte-order mark is text.
   */
  read(path: string, max: number, textOnly = false, extent?: TextExtent): Buffer | null {
    this.wasCut = false;
    let fd: number;
    try {
      // No symlink is followed while searching: walk and ripgrep both skip them, and a swap is refused here.
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    } catch {
      return null;
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile() || info.size > max) return null;
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
      let bytes = this.scratch.subarray(0, Math.min(got, upTo));
      if (byExtent) {
        if (upTo === info.size) bytes = bytes.subarray(0, extent!.fromWhole(bytes));
        if (bytes.length === 0 && info.size > 0) return null;
        this.wasCut = bytes.length < info.size;
        encoding = textEncodingOf(bytes.subarray(0, 3)) === 'utf8-bom' ? 'utf8-bom' : 'utf8';
      }
      // UTF-16 and a UTF-8 BOM: the text as UTF-8 bytes, as ripgrep searches it (text-bytes.ts).
      if (encoding === 'utf8') return bytes;
      return encoding === 'utf8-bom' ? bytes.subarray(3) : utf8TextBytes(bytes);
    } catch {
      return null;
    } finally {
      closeSync(fd);
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

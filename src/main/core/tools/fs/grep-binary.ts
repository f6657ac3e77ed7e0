/**
 * ripgrep's binary rule, which both of grep_files' engines follow (docs/tools.md "Binary files"). rg reads a file
 * into a line buffer, one fill after another, and looks for a NUL byte in each fill's new bytes: the fill that holds
 * the file's first NUL is not searched, nor anything after it (rg 13, `grep-searcher`'s `LineBuffer::fill` with
 * `BinaryDetection::Quit`; `ReadByLine::fill` stops there). So:
 * - a NUL in the first fill (64 KB, the buffer's capacity) makes the file binary: nothing of it is searched;
 * - a NUL found later keeps the matches of the fills before it, and rg prints a notice after them
 *   (`path: WARNING: stopped searching binary file after match (found "\0" byte around offset N)`); in count mode
 *   rg leaves such a file out (its count would be of a part).
 * Fills, as rg makes them: the first read takes only 3 bytes (encoding_rs_io's byte-order-mark sniffing), and a fill
 * that ends without a line break reads on (the buffer grows threefold when full) until one comes; each next fill keeps
 * the unfinished last line (with context lines asked for, the last `context` + 1 lines) and fills the rest of the
 * buffer. Where rg can differ from this: rg keeps one buffer per thread for every file it searches, and a buffer
 * grown by a long line earlier (a minified bundle's) reads more at once, so whether the part before a late NUL is
 * searched can depend on which thread read which files before (a NUL within the first 64 KB is binary either way);
 * and with context, a match among a fill's last lines makes rg keep fewer of them.
 */

import type { TextExtent } from '../../disk/search-reader';

/** rg's line buffer capacity: what its first fill reads (`DEFAULT_BUFFER_CAPACITY`, 64 KB since rg 13). */
export const RG_FIRST_FILL_BYTES = 64 * 1024;
/** The byte-order-mark sniffing reads this much first. */
const BOM_PEEK_BYTES = 3;
const NEWLINE = 0x0a;

/**
 * How many leading bytes of a file rg searches, from its head: the file's first `head.length` bytes of `size`. A
 * number once the head decides it (0: binary), or null when the whole file is needed (no NUL in the first fill).
 */
export function searchedFromHead(head: Uint8Array, size: number): number | null {
  const nul = head.indexOf(0);
  if (nul === -1) return head.length >= size ? size : null;
  if (nul >= RG_FIRST_FILL_BYTES) return null;
  // The NUL is in the first 64 KB. Only a line break in the first 3 bytes ends a fill before it: then the lines
  // before that break are searched, and the next fill (the rest of the 64 KB) holds the NUL.
  if (nul < BOM_PEEK_BYTES) return 0;
  const lastBreak = head.subarray(0, BOM_PEEK_BYTES).lastIndexOf(NEWLINE);
  return lastBreak + 1;
}

/**
 * How many leading bytes of `bytes` (a whole file) rg searches: all of them without a NUL, else the lines of the
 * fills before the one that reads the first NUL. `context`: the context lines asked for (rg keeps them across fills).
 */
export function searchedBytes(bytes: Uint8Array, context: number): number {
  const nul = bytes.indexOf(0);
  if (nul === -1) return bytes.length;
  let capacity = RG_FIRST_FILL_BYTES;
  let start = 0; // the buffer's first byte (everything before it is consumed)
  let end = 0; // the end of what has been read
  let searched = 0; // the end of the last fill's last line: what has been searched
  let isFirstRead = true;
  for (;;) {
    for (;;) {
      if (end - start === capacity) capacity *= 3; // a line longer than the buffer: it grows
      const room = isFirstRead ? BOM_PEEK_BYTES : capacity - (end - start);
      isFirstRead = false;
      const from = end;
      end = Math.min(bytes.length, end + room);
      if (nul < end) return searched; // this fill read the NUL: it is not searched
      const lastBreak = bytes.lastIndexOf(NEWLINE, end - 1);
      if (lastBreak >= from) {
        searched = lastBreak + 1;
        break;
      }
    }
    start = context > 0 ? linesBefore(bytes, start, searched, context + 1) : searched;
  }
}

/** The start of the `count`th line before `end` (which follows a line break), not before `floor`. */
function linesBefore(bytes: Uint8Array, floor: number, end: number, count: number): number {
  let at = end - 1; // the last line's break
  for (let n = 0; n < count; n++) {
    if (at <= floor) return floor;
    const prev = bytes.lastIndexOf(NEWLINE, at - 1);
    if (prev < floor) return floor;
    at = prev;
  }
  return at + 1;
}

const extents = new Map<number, TextExtent>();

/** ripgrep's rule as the search reader takes it (`SearchReader.read`), for `context` lines of context. */
export function ripgrepExtent(context = 0): TextExtent {
  let extent = extents.get(context);
  if (!extent)
    extents.set(
      context,
      (extent = {
        headBytes: RG_FIRST_FILL_BYTES,
        fromHead: searchedFromHead,
        fromWhole: (bytes) => searchedBytes(bytes, context),
      }),
    );
  return extent;
}

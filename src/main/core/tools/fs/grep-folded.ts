/**
 * Finding an ASCII literal in a file's bytes with ASCII letters in either case: what a case-insensitive JavaScript
 * regular expression without the `u` flag matches for such a literal (its `i` folds an ASCII letter only to the same
 * letter in the other case; no character above ASCII folds to an ASCII one, so `K` (U+212A) and `ſ` (U+017F) match no
 * `k` or `s`), and what it matches in a line's latin1 reading of its bytes (grep-pattern.ts `bytesAlike`).
 * Why not that regular expression: it needs the bytes as a string, and copying every file of a tree to a latin1 string
 * cost more than the search itself (node_modules, 403 MB: 200 ms of processor time to copy, 110 to match). Here the
 * bytes are copied into a WebAssembly memory (a plain copy, no string, no garbage: 33 ms), up to 1 MB at a time, and
 * scanned 16 bytes at a time (SIMD): two bytes of the literal, at its rarest places, are compared in each of 16
 * positions at once, and a position where both agree is checked whole. Where WebAssembly cannot run, `foldedFinder` is
 * null and the caller copies to latin1 as before (docs/performance.md "Two engines, one answer").
 */

/** Memory layout: the literal's bytes (lower-cased), their case masks, then the file's bytes. */
const NEEDLE_AT = 0;
const MASKS_AT = 4096;
const HAYSTACK_AT = 8192;
/** The vector loads read up to 15 bytes past the last position a match can start at. */
const PADDING = 16;
const PAGE = 65536;
/**
 * Bytes of a file in the memory at once: a bigger file is copied a window at a time, as far as the search goes (a
 * files-only answer stops at the first match), and the memory stays this small on every thread that searches.
 */
export const FOLDED_WINDOW = 1024 * 1024;
/** Longest literal taken: the pattern's own cap (search-engine.ts MAX_PATTERN_CHARS), as one byte a character. */
export const MAX_FOLDED_LITERAL = MASKS_AT - NEEDLE_AT;

interface FoldedScan {
  /** The first position in [from, last] (memory addresses) where the literal matches, or -1. */
  find(from: number, last: number, length: number, rareAt: number, nextRareAt: number): number;
  memory: WebAssembly.Memory;
}

const I32 = 0x7f;
const V128 = 0x7b;
const EMPTY = 0x40; // a block's type: no result
const MINUS_ONE = 0x7f; // -1 in signed LEB128
const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  get: 0x20,
  set: 0x21,
  tee: 0x22,
  load8: 0x2d,
  const: 0x41,
  eqz: 0x45,
  ne: 0x47,
  gtU: 0x4b,
  geU: 0x4f,
  ctz: 0x68,
  add: 0x6a,
  sub: 0x6b,
  and: 0x71,
  or: 0x72,
};
/** SIMD instructions: the 0xfd prefix, then their number (all below 128, so one byte of LEB128). */
const simd = { load: [0xfd, 0x00], splat: [0xfd, 0x0f], eq: [0xfd, 0x23], and: [0xfd, 0x4e], or: [0xfd, 0x50] };
const simdBitmask = [0xfd, 0x64];

/** An unsigned number in WebAssembly's LEB128 (7 bits a byte, low first); grammars.test.ts's child uses it too. */
export const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
};
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
const name = (s: string) => [s.length, ...Buffer.from(s, 'latin1')];
const at = (offset: number) => [0, ...leb(offset)]; // memarg: alignment 1, offset

// find(from, last, length, rareAt, nextRareAt): locals 0-4 are those; then p, m, c, k and the four splats.
const [FROM, LAST, LENGTH, RARE, NEXT] = [0, 1, 2, 3, 4];
const [P, M, C, K, N1, M1, N2, M2] = [5, 6, 7, 8, 9, 10, 11, 12];
/** Both rare bytes compared in 16 positions: the mask of positions where both agree. */
const positionsAgreeing = [
  ...[op.get, P, op.get, RARE, op.add, ...simd.load, ...at(0), op.get, M1, ...simd.or, op.get, N1, ...simd.eq],
  ...[op.get, P, op.get, NEXT, op.add, ...simd.load, ...at(0), op.get, M2, ...simd.or, op.get, N2, ...simd.eq],
  ...simd.and,
  ...simdBitmask,
];
/** Returns c when the whole literal agrees at c (each byte ORed with its case mask equals the lower-cased byte). */
const checkWhole = [
  ...[op.const, 0, op.set, K],
  ...[op.block, EMPTY, op.loop, EMPTY],
  ...[op.get, K, op.get, LENGTH, op.geU, op.if, EMPTY, op.get, C, op.return, op.end],
  ...[op.get, C, op.get, K, op.add, op.load8, ...at(0), op.get, K, op.load8, ...at(MASKS_AT), op.or],
  ...[op.get, K, op.load8, ...at(NEEDLE_AT), op.ne, op.brIf, 1],
  ...[op.get, K, op.const, 1, op.add, op.set, K, op.br, 0],
  ...[op.end, op.end],
];
/**
 * find(from, last, length, rareAt, nextRareAt), in short:
 *   for p = from; p <= last; p += 16:
 *     m = bitmask(fold(load16(p + rareAt)) == needle[rareAt] & fold(load16(p + nextRareAt)) == needle[nextRareAt])
 *     for each bit of m, lowest first: c = p + bit; if c > last return -1; if the literal agrees at c, return c
 *   return -1
 */
const body = [
  ...[2, 4, I32, 4, V128], // locals: 4 i32 (p, m, c, k), 4 v128 (the splats)
  ...[op.get, RARE, op.load8, ...at(NEEDLE_AT), ...simd.splat, op.set, N1],
  ...[op.get, RARE, op.load8, ...at(MASKS_AT), ...simd.splat, op.set, M1],
  ...[op.get, NEXT, op.load8, ...at(NEEDLE_AT), ...simd.splat, op.set, N2],
  ...[op.get, NEXT, op.load8, ...at(MASKS_AT), ...simd.splat, op.set, M2],
  ...[op.get, FROM, op.set, P],
  ...[op.loop, EMPTY],
  ...[op.get, P, op.get, LAST, op.gtU, op.if, EMPTY, op.const, MINUS_ONE, op.return, op.end],
  ...positionsAgreeing,
  ...[op.set, M, op.block, EMPTY, op.loop, EMPTY],
  ...[op.get, M, op.eqz, op.brIf, 1],
  ...[op.get, P, op.get, M, op.ctz, op.add, op.tee, C],
  ...[op.get, LAST, op.gtU, op.if, EMPTY, op.const, MINUS_ONE, op.return, op.end],
  ...checkWhole,
  ...[op.get, M, op.get, M, op.const, 1, op.sub, op.and, op.set, M, op.br, 0],
  ...[op.end, op.end],
  ...[op.get, P, op.const, 16, op.add, op.set, P, op.br, 0],
  ...[op.end, op.const, MINUS_ONE, op.end],
];
const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 1, I32]),
  ...section(3, [1, 0]),
  ...section(5, [1, 0x00, 1]),
  ...section(7, [2, ...name('find'), 0x00, 0, ...name('memory'), 0x02, 0]),
  ...section(10, [1, ...leb(body.length), ...body]),
]);

let scan: FoldedScan | null | undefined;

/** This thread's scanner, made on first use; null where WebAssembly (with SIMD) cannot run. */
function scanner(): FoldedScan | null {
  if (scan !== undefined) return scan;
  try {
    scan = new WebAssembly.Instance(new WebAssembly.Module(MODULE)).exports as unknown as FoldedScan;
    scan.memory.grow(Math.ceil((HAYSTACK_AT + FOLDED_WINDOW + PADDING) / PAGE) - scan.memory.buffer.byteLength / PAGE);
  } catch {
    scan = null;
  }
  return scan;
}

const isLetter = (byte: number) => (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a;
/** ASCII bytes from common to rare in source text, for choosing the places compared first; unlisted ones are rarer. */
const COMMON = ' etaoinsrlcdumphgbfywkvxzjq\n.,;()_=-\'"/:0123456789{}';
const rarity = (byte: number) => {
  const rank = COMMON.indexOf(String.fromCharCode(isLetter(byte) ? byte | 0x20 : byte));
  return rank === -1 ? COMMON.length : rank;
};

/** The places of a literal's two rarest bytes (the same place twice for a one-byte literal). */
function rarePlaces(literal: Buffer): [number, number] {
  const places = [...literal.keys()].sort((a, b) => rarity(literal[b]!) - rarity(literal[a]!));
  return [places[0]!, places[1] ?? places[0]!];
}

/** The literal in the memory now, with its rare places (a search writes it once, for its first file). */
let loaded: { literal: Buffer; rare: number; next: number } | null = null;

/**
 * A search of `bytes` for `literal` (ASCII, 1 to MAX_FOLDED_LITERAL bytes), ASCII letters in either case: the next
 * byte offset at or after `from` where it starts, or -1. Valid until the next call (the memory is this thread's).
 * Null where WebAssembly cannot run.
 */
export function foldedFinder(literal: Buffer, bytes: Buffer): ((from: number) => number) | null {
  const wasm = scanner();
  if (!wasm || literal.length === 0 || literal.length > MAX_FOLDED_LITERAL) return null;
  const mem = new Uint8Array(wasm.memory.buffer);
  if (loaded?.literal !== literal) {
    for (let k = 0; k < literal.length; k++) {
      const byte = literal[k]!;
      mem[NEEDLE_AT + k] = isLetter(byte) ? byte | 0x20 : byte;
      mem[MASKS_AT + k] = isLetter(byte) ? 0x20 : 0;
    }
    const [rare, next] = rarePlaces(literal);
    loaded = { literal, rare, next };
  }
  const { rare, next } = loaded;
  const length = literal.length;
  const lastStart = bytes.length - length; // the last offset a match can start at
  // The window of the file in the memory: [windowStart, windowEnd) at HAYSTACK_AT; none yet.
  let windowStart = 0;
  let windowEnd = 0;
  return (from) => {
    while (from <= lastStart) {
      if (from < windowStart || from + length > windowEnd) {
        windowStart = from;
        windowEnd = Math.min(bytes.length, from + FOLDED_WINDOW);
        mem.set(bytes.subarray(windowStart, windowEnd), HAYSTACK_AT);
      }
      // Matches that start in the window and end in it; one that runs past its end is found in the next window.
      const lastHere = Math.min(lastStart, windowEnd - length);
      const at = HAYSTACK_AT - windowStart;
      const found = wasm.find(at + from, at + lastHere, length, rare, next);
      if (found !== -1) return found - at;
      from = lastHere + 1;
    }
    return -1;
  };
}

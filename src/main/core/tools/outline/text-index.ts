/**
 * Where a kept file's lines start and where its characters of more than one UTF-8 byte are, so that an edit found
 * in the file's bytes maps to character offsets and lines of the kept outline without decoding or even holding the
 * whole text (docs/outline.md "Re-outlining after an edit"). Decoding a multi-megabyte file, or joining its kept text
 * with an edit (V8 copies the whole string the first time the joined string is read), costs more than the rest of a
 * re-outline; with this index an edit decodes only its own bytes and the slice that is parsed again.
 * Offsets are UTF-16 code units, as JavaScript strings and the parsers' pieces count them. An index exists only for
 * bytes that are valid UTF-8 (`isUtf8`): then every character's byte length is known from its code.
 */
import { isUtf8 } from 'node:buffer';

const WIDE = /[\ud800-\udbff][\udc00-\udfff]|[^\x00-\x7f]/g;

/** UTF-8 bytes minus UTF-16 units of a non-ASCII character (a surrogate pair counts once). */
function extraOf(char: string): number {
  return char.length === 2 ? 2 : char.charCodeAt(0) < 0x800 ? 1 : 2;
}

/** The non-ASCII characters of `text` as (char offset, cumulative extra bytes) pairs, offsets moved by `at`. */
function widesOf(text: string, at: number, extraBefore: number, chars: number[], extras: number[]): number {
  let extra = extraBefore;
  WIDE.lastIndex = 0;
  for (let m = WIDE.exec(text); m; m = WIDE.exec(text)) {
    chars.push(at + m.index);
    extra += extraOf(m[0]);
    extras.push(extra);
  }
  return extra;
}

function newlinesOf(text: string, at: number, out: number[]): void {
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(at + i + 1);
}

/** The first index in the sorted `list` whose value is more than `value` (`inclusive`: at least `value`). */
function upperBound(list: Int32Array, value: number, inclusive = false): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (inclusive ? list[mid]! < value : list[mid]! <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * How many bytes `a` and `b` share at their start: memory compares of shrinking chunks (64 KB down to 1 byte), not a
 * loop over bytes. Equal buffers share their whole length, so this is also the equality test (one pass, where an
 * `equals` and then the search for the edit were two over the part before the edit).
 */
export function commonPrefix(a: Buffer, b: Buffer): number {
  const max = Math.min(a.length, b.length);
  let prefix = 0;
  for (let chunk = 64 * 1024; chunk >= 1; chunk >>= 4) {
    while (prefix + chunk <= max && a.compare(b, prefix, prefix + chunk, prefix, prefix + chunk) === 0) prefix += chunk;
  }
  return prefix;
}

/** A file's bytes compared with the kept ones: the changed span, in bytes and in characters, and its new text. */
export interface ByteEdit {
  /** Characters (and bytes) the two share at their start. */
  prefixChars: number;
  prefixBytes: number;
  /** Where the shared end starts in the kept text. */
  oldEndChars: number;
  oldEndBytes: number;
  /** The new text between the shared start and end. */
  middle: string;
  /** The new file's index. */
  index: TextIndex;
}

export class TextIndex {
  private constructor(
    /** Length in UTF-16 units. */
    readonly chars: number,
    readonly bytes: number,
    /** Offset of each line's start after the first (just after each `\n`). */
    private readonly lineStarts: Int32Array,
    /** Offset of each non-ASCII character. */
    private readonly wideChars: Int32Array,
    /** Extra bytes (UTF-8 bytes minus UTF-16 units) up to and including each non-ASCII character. */
    private readonly wideExtras: Int32Array,
  ) {}

  /** The index of `text`, the decoding of `bytes`; null when the bytes are not valid UTF-8. */
  static of(text: string, bytes: Buffer): TextIndex | null {
    if (!isUtf8(bytes)) return null;
    const lines: number[] = [];
    newlinesOf(text, 0, lines);
    const chars: number[] = [];
    const extras: number[] = [];
    const extra = widesOf(text, 0, 0, chars, extras);
    if (text.length + extra !== bytes.length) return null;
    return new TextIndex(
      text.length,
      bytes.length,
      Int32Array.from(lines),
      Int32Array.from(chars),
      Int32Array.from(extras),
    );
  }

  /** 1-based line of a character offset. */
  lineOf(offset: number): number {
    return upperBound(this.lineStarts, offset) + 1;
  }

  /** Characters between the start of the offset's line and the offset. */
  columnOf(offset: number): number {
    const line = upperBound(this.lineStarts, offset);
    return offset - (line === 0 ? 0 : this.lineStarts[line - 1]!);
  }

  /** Line breaks in the characters [from, to). */
  newlinesIn(from: number, to: number): number {
    return upperBound(this.lineStarts, to) - upperBound(this.lineStarts, from);
  }

  /** The byte offset of a character offset (at a character's start). */
  byteOf(offset: number): number {
    const k = upperBound(this.wideChars, offset, true);
    return offset + (k === 0 ? 0 : this.wideExtras[k - 1]!);
  }

  /** The character offset of a byte offset at a character's start. */
  charOf(byte: number): number {
    // The extra bytes before `byte` belong to the wide characters whose bytes start before it.
    let lo = 0;
    let hi = this.wideChars.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const start = this.wideChars[mid]! + (mid === 0 ? 0 : this.wideExtras[mid - 1]!);
      if (start < byte) lo = mid + 1;
      else hi = mid;
    }
    return byte - (lo === 0 ? 0 : this.wideExtras[lo - 1]!);
  }

  /**
   * `bytes` (the new content) against `old` (the bytes this index describes): the changed span and the new index;
   * null when the new bytes are not valid UTF-8. Only the changed bytes are decoded.
   */
  edit(old: Buffer, bytes: Buffer, common = commonPrefix(old, bytes)): ByteEdit | null {
    const max = Math.min(old.length, bytes.length);
    let prefix = common;
    let suffix = 0;
    for (let chunk = 64 * 1024; chunk >= 1; chunk >>= 4) {
      while (
        suffix + chunk <= max - prefix &&
        old.compare(
          bytes,
          bytes.length - suffix - chunk,
          bytes.length - suffix,
          old.length - suffix - chunk,
          old.length - suffix,
        ) === 0
      )
        suffix += chunk;
    }
    // Both ends on a character's first byte (a continuation byte is 10xxxxxx), in the old and the new bytes.
    const continues = (b: Buffer, at: number) => at < b.length && (b[at]! & 0xc0) === 0x80;
    while (prefix > 0 && (continues(old, prefix) || continues(bytes, prefix))) prefix--;
    while (suffix > 0 && (continues(old, old.length - suffix) || continues(bytes, bytes.length - suffix))) suffix--;
    const oldEndBytes = old.length - suffix;
    const newEndBytes = bytes.length - suffix;
    const middleBytes = bytes.subarray(prefix, newEndBytes);
    if (!isUtf8(middleBytes)) return null;
    const middle = middleBytes.toString('utf8');
    const prefixChars = this.charOf(prefix);
    const oldEndChars = this.charOf(oldEndBytes);
    const charDelta = prefixChars + middle.length - oldEndChars;

    const lineCut = upperBound(this.lineStarts, prefixChars);
    const lineKeep = upperBound(this.lineStarts, oldEndChars);
    const middleLines: number[] = [];
    newlinesOf(middle, prefixChars, middleLines);
    const lineStarts = new Int32Array(lineCut + middleLines.length + this.lineStarts.length - lineKeep);
    lineStarts.set(this.lineStarts.subarray(0, lineCut));
    lineStarts.set(middleLines, lineCut);
    for (let k = lineKeep, at = lineCut + middleLines.length; k < this.lineStarts.length; k++, at++)
      lineStarts[at] = this.lineStarts[k]! + charDelta;

    const wideCut = upperBound(this.wideChars, prefixChars, true);
    const wideKeep = upperBound(this.wideChars, oldEndChars, true);
    const extraBefore = wideCut === 0 ? 0 : this.wideExtras[wideCut - 1]!;
    const middleChars: number[] = [];
    const middleExtras: number[] = [];
    const extraAfter = widesOf(middle, prefixChars, extraBefore, middleChars, middleExtras);
    const oldExtraAfter = wideKeep === 0 ? 0 : this.wideExtras[wideKeep - 1]!;
    const count = wideCut + middleChars.length + this.wideChars.length - wideKeep;
    const wideChars = new Int32Array(count);
    const wideExtras = new Int32Array(count);
    wideChars.set(this.wideChars.subarray(0, wideCut));
    wideExtras.set(this.wideExtras.subarray(0, wideCut));
    wideChars.set(middleChars, wideCut);
    wideExtras.set(middleExtras, wideCut);
    for (let k = wideKeep, at = wideCut + middleChars.length; k < this.wideChars.length; k++, at++) {
      wideChars[at] = this.wideChars[k]! + charDelta;
      wideExtras[at] = this.wideExtras[k]! - oldExtraAfter + extraAfter;
    }
    const index = new TextIndex(this.chars + charDelta, bytes.length, lineStarts, wideChars, wideExtras);
    return { prefixChars, prefixBytes: prefix, oldEndChars, oldEndBytes, middle, index };
  }
}

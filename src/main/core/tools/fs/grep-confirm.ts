/**
 * How grep_files confirms what ripgrep printed before any of it is shown (docs/guards.md "One disk policy"): rg opens
 * files by their paths, which a folder swapped for a link can send into `secrets/`, so each hit's file is opened again
 * on a descriptor whose identity is checked (disk/search-reader.ts), and only lines that file has where rg says are
 * shown.
 */
import type { SearchReader } from '../../disk/search-reader';
import { type FileMatches, MAX_GREP_FILE_BYTES } from './grep-engines';
import { byteLineSource, clipLine, lineIndex, type LineSource, MAX_MATCH_LINE_CHARS } from './search-engine';

/**
 * A ripgrep hit checked against the file read again on a confirmed descriptor: false when a line ripgrep printed of it
 * (matches and context, as far as a result shows a line) is not the same there (the file changed, or ripgrep read
 * another file under its name): the hit is left out. Otherwise ripgrep's lines are shown as printed, or, where it
 * printed none, the lines of the confirmed read (returned).
 */
export function confirmRipgrepHit(hit: FileMatches, reader: SearchReader): LineSource | null | false {
  if (hit.lineOffsets && hit.matchTexts) {
    const checked = linesAtOffsets(hit, hit.lineOffsets, reader);
    if (checked !== 'undecided') return checked ? null : false;
  }
  // The whole file (not cut where ripgrep's binary rule would): rg's threads may have read past where the rule says.
  const bytes = reader.read(hit.path, MAX_GREP_FILE_BYTES, true);
  if (!bytes || !reader.confirm()) return false;
  if (!hit.lineTexts && !hit.matchTexts) return lineIndex(bytes.toString('utf8'));
  // Only the lines rg printed are decoded (decoding and indexing every hit's whole file made a whole answer of a rare
  // word on /usr/include 4× rg's run).
  const lines = byteLineSource(bytes);
  const printed: Iterable<[number, string]> = hit.lineTexts ?? hit.matches.map((no, i) => [no, hit.matchTexts![i]!]);
  for (const [no, text] of printed) {
    const own = lines.at(no);
    if (own === undefined || clipLine(own) !== clipLine(text)) return false;
  }
  return null;
}

/** A window read at once, so that a hunk's lines (or a file's near hits) cost one read, not one each. */
const WINDOW_BYTES = 64 * 1024;
/**
 * A first line starting within this many bytes of the file's start is read with the bytes before it: the window then
 * holds the file's head too, which `headIsPlainUtf8` would otherwise read on its own (one read less per file, most of
 * a whole answer's hit files).
 */
const HEAD_WITH_WINDOW_BYTES = 16 * 1024;
/** Bytes read of a line: rg prints at most PREVIEW_BYTES of one, and a line ends with CR LF at most. */
const LINE_READ_BYTES = MAX_MATCH_LINE_CHARS * 3 + 1 + 2;

/**
 * The lines ripgrep printed of a file (matches and context) checked where rg says each starts (`--byte-offset`), on a
 * confirmed descriptor, without reading the rest of the file: each must start a line there (the file's start, or
 * after a line break) and read the same as far as a result shows a line. Reading every hit's whole file for this was
 * most of a whole answer's time beyond rg's run (/usr/include, a rare word: 30 MB read again for 1,448 lines). The
 * line's number is rg's: what is shown of the file is its own bytes. 'undecided' for a file with a byte-order mark,
 * whose offsets are in the text rg decoded (UTF-16) or past the mark: the caller reads it whole.
 */
export function linesAtOffsets(
  hit: FileMatches,
  offsets: ReadonlyMap<number, number>,
  reader: SearchReader,
): boolean | 'undecided' {
  const size = reader.openForReads(hit.path, MAX_GREP_FILE_BYTES);
  if (size === null) return false;
  const lines = printedLines(hit, offsets, size);
  const areThere = lines !== null && linesAreThere(lines, size, reader);
  const isPlain = reader.headIsPlainUtf8();
  if (areThere && isPlain) return reader.confirm();
  reader.release();
  return isPlain ? false : 'undecided';
}

interface PrintedLine {
  at: number;
  text: string;
}

const byOffset = (a: PrintedLine, b: PrintedLine) => a.at - b.at;

/** The lines rg printed of the file, by where they start; null when one has no offset inside the file. */
function printedLines(hit: FileMatches, offsets: ReadonlyMap<number, number>, size: number): PrintedLine[] | null {
  const lines: PrintedLine[] = [];
  if (hit.lineTexts) {
    for (const [no, text] of hit.lineTexts) {
      const at = offsets.get(no);
      if (at === undefined || at >= size) return null;
      lines.push({ at, text });
    }
  } else {
    for (let i = 0; i < hit.matches.length; i++) {
      const at = offsets.get(hit.matches[i]!);
      if (at === undefined || at >= size) return null;
      lines.push({ at, text: hit.matchTexts![i]! });
    }
  }
  return lines.sort(byOffset);
}

/** Whether each line (sorted by offset) starts a line of the open file there and reads the same as far as shown. */
function linesAreThere(lines: readonly PrintedLine[], size: number, reader: SearchReader): boolean {
  let window: Buffer | null = null;
  let from = 0;
  const lastEnd = lines.at(-1)!.at + LINE_READ_BYTES;
  for (const { at, text } of lines) {
    const start = window === null && at < HEAD_WITH_WINDOW_BYTES ? 0 : Math.max(0, at - 1);
    const end = Math.min(size, at + LINE_READ_BYTES);
    if (!window || start < from || end > from + window.length) {
      from = start;
      window = reader.at(from, Math.min(size, Math.max(end, Math.min(start + WINDOW_BYTES, lastEnd))));
      if (!window || from + window.length < end) return false;
    }
    const lineStart = at - from;
    if (at > 0 && window[lineStart - 1] !== 0x0a) return false;
    const lineEnd = end - from;
    let stop = window.indexOf(0x0a, lineStart);
    const isWhole = (stop !== -1 && stop < lineEnd) || end === size;
    if (stop === -1 || stop >= lineEnd) stop = Math.min(lineEnd, lineStart + LINE_READ_BYTES - 2);
    if (isWhole && stop > lineStart && window[stop - 1] === 0x0d) stop--;
    if (clipLine(window.toString('utf8', lineStart, stop)) !== clipLine(text)) return false;
  }
  return true;
}

/** Whether two hits of a file print the same lines (numbers, offsets and texts, context included). */
export function samePrintedLines(a: FileMatches, b: FileMatches): boolean {
  if (a.matches.length !== b.matches.length || a.lineTexts?.size !== b.lineTexts?.size) return false;
  if (!a.lineOffsets || !b.lineOffsets || !a.matchTexts || !b.matchTexts) return false;
  for (let i = 0; i < a.matches.length; i++) {
    const no = a.matches[i]!;
    if (no !== b.matches[i] || a.matchTexts[i] !== b.matchTexts[i]) return false;
    if (a.lineOffsets.get(no) !== b.lineOffsets.get(no)) return false;
  }
  if (a.lineTexts)
    for (const [no, text] of a.lineTexts)
      if (b.lineTexts!.get(no) !== text || a.lineOffsets.get(no) !== b.lineOffsets.get(no)) return false;
  return true;
}

/**
 * Re-outlining an edited file by reparsing only what the edit touched (docs/outline.md "Re-outlining after an
 * edit"). The old text's pieces (statements, and members inside classes and namespaces) say where statements begin
 * and end; the edit is the span between the common prefix and suffix of the old and new text. The deepest container
 * whose body holds the whole edit is tried first: the slice from the end of the last untouched member before the
 * edit to the start of the first untouched member after it is parsed alone (after the container's one-line header),
 * and its pieces replace the touched ones. A slice is accepted only when:
 * - it parses without a problem;
 * - JavaScript: the piece before it and its own last piece are closed (Piece.closed), so no statement can run across
 *   the seam;
 * - Python: each of its pieces starts at the body's column, so the file's blocks are the ones the slice had.
 * Otherwise the next container out is tried, then the whole file is parsed again.
 */
import type { OutlineItem } from './extract';
import { lineIndex } from './extract';
import { settledPieces, shiftPieces, type ParsedText, type Piece, type PieceBody } from './pieces';

/** Parses a standalone text whose top-level statements sit at `depth`. */
export type Reparse = (text: string, depth: number) => Promise<ParsedText>;

export interface Spliced {
  items: OutlineItem[];
  pieces: Piece[];
  /** How much text was parsed again (for the bench and tests). */
  reparsedChars: number;
}

interface Level {
  pieces: Piece[];
  start: number;
  end: number;
  head: string;
  tail: string;
  /** Depth of `pieces`. */
  depth: number;
  /** The container piece this level is the body of (null at the top). */
  owner: Piece | null;
}

/**
 * What an edit changed, told without the whole new text: the shared start and end of the old and new text, and ways
 * to read lines, columns and slices (`stringEdit` for two strings; the outline cache builds one from a file's bytes
 * and its `TextIndex`, so a big file's text is never decoded or copied whole).
 */
export interface TextEdit {
  /** Characters the old and new text share at their start. */
  prefix: number;
  /** Where the shared end starts in the old text. */
  oldEnd: number;
  /** New length minus old length. */
  delta: number;
  /** New line count minus old line count. */
  lineDelta: number;
  /** 1-based line of an offset in the old text. */
  oldLine(offset: number): number;
  oldColumn(offset: number): number;
  newColumn(offset: number): number;
  /** Characters [from, to) of the new text. */
  slice(from: number, to: number): string;
}

/** The edit that turns `oldText` into `newText`. */
export function stringEdit(oldText: string, newText: string): TextEdit {
  const prefix = commonPrefix(oldText, newText);
  const suffix = commonSuffix(oldText, newText, prefix);
  const oldEnd = oldText.length - suffix;
  const lineOfOld = lineIndex(oldText);
  const column = (text: string, offset: number) => offset - (text.lastIndexOf('\n', offset - 1) + 1);
  return {
    prefix,
    oldEnd,
    delta: newText.length - oldText.length,
    lineDelta: countNewlines(newText, prefix, newText.length - suffix) - countNewlines(oldText, prefix, oldEnd),
    oldLine: lineOfOld,
    oldColumn: (offset) => column(oldText, offset),
    newColumn: (offset) => column(newText, offset),
    slice: (from, to) => newText.slice(from, to),
  };
}

/**
 * The new outline after `edit` of the text `pieces` were parsed from, or null when the edit cannot be confined (then
 * parse the whole text). On success, `pieces` are updated in place and returned.
 */
export async function spliceOutline(
  edit: TextEdit,
  oldLength: number,
  pieces: Piece[],
  reparse: Reparse,
  indentSensitive: boolean,
): Promise<Spliced | null> {
  const { prefix, oldEnd, delta, lineDelta } = edit;

  const levels: Level[] = [{ pieces, start: 0, end: oldLength, head: '', tail: '', depth: 0, owner: null }];
  for (;;) {
    const level = levels[levels.length - 1]!;
    const inside = level.pieces.find(
      (p) => p.body && p.body.head !== '' && p.body.start <= prefix && oldEnd <= p.body.end,
    );
    if (!inside) break;
    const body = inside.body!;
    levels.push({
      pieces: settledPieces(body),
      start: body.start,
      end: body.end,
      head: body.head,
      tail: body.tail,
      depth: body.depth,
      owner: inside,
    });
  }

  for (let at = levels.length - 1; at >= 0; at--) {
    const level = levels[at]!;
    const list = level.pieces;
    let i = 0;
    while (i < list.length && list[i]!.end < prefix) i++;
    let j = list.length - 1;
    while (j >= 0 && list[j]!.start > oldEnd) j--;
    if (i > 0 && !list[i - 1]!.closed) continue;
    const regionStart = i > 0 ? list[i - 1]!.end : level.start;
    const regionEnd = j + 1 < list.length ? list[j + 1]!.start : level.end;
    const slice = edit.slice(regionStart, regionEnd + delta);
    const wrapped = level.head + slice + level.tail;
    const parsed = await reparse(wrapped, level.head ? level.depth - 1 : level.depth);
    if (parsed.problems.length > 0 || !parsed.pieces) continue;
    let fresh = parsed.pieces;
    if (level.head) {
      // The header makes one container; its body's pieces are the slice's members.
      if (fresh.length !== 1 || !fresh[0]!.body) continue;
      fresh = fresh[0]!.body.pieces;
    }
    const last = fresh[fresh.length - 1];
    if (j + 1 < list.length && last && !last.closed) continue;
    // Into the new text's coordinates: the wrapper's header is on the slice's first line.
    shiftPieces(fresh, regionStart - level.head.length, edit.oldLine(regionStart) - 1);
    if (indentSensitive && !sameColumn(edit, fresh, list, at === 0)) continue;

    shiftPieces(list, delta, lineDelta, j + 1);
    list.splice(i, Math.max(0, j - i + 1), ...fresh);
    // Every container around the edit grows by the edit, and lists its members again.
    for (let up = at; up >= 1; up--) {
      const owner = levels[up]!.owner!;
      owner.end += delta;
      const body = owner.body as PieceBody;
      body.end += delta;
      const item = owner.items[0];
      if (item) {
        item.endLine += lineDelta;
        item.children = body.pieces.flatMap((p) => p.items);
      }
      const parentList = levels[up - 1]!.pieces;
      shiftPieces(parentList, delta, lineDelta, parentList.indexOf(owner) + 1);
    }
    return { items: pieces.flatMap((p) => p.items), pieces, reparsedChars: wrapped.length };
  }
  return null;
}

/** Python: the slice's statements must start where the body's statements start (column 0 at the top). */
function sameColumn(edit: TextEdit, fresh: readonly Piece[], old: readonly Piece[], isTop: boolean): boolean {
  const expected = isTop ? 0 : old.length > 0 ? edit.oldColumn(old[0]!.start) : -1;
  return expected >= 0 && fresh.every((p) => edit.newColumn(p.start) === expected);
}

const CHUNK = 4096;

/** Length of the common prefix, compared a chunk at a time (string equality is a memory compare). */
export function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i + CHUNK <= max && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common suffix that does not overlap a common prefix of `prefix` characters. */
export function commonSuffix(a: string, b: string, prefix: number): number {
  const max = Math.min(a.length, b.length) - prefix;
  let n = 0;
  while (
    n + CHUNK <= max &&
    a.slice(a.length - n - CHUNK, a.length - n) === b.slice(b.length - n - CHUNK, b.length - n)
  )
    n += CHUNK;
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

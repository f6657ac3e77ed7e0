/**
 * The shape a parse hands back besides the outline: the file's statements (and, inside classes and namespaces,
 * their members) as offset spans, each with the outline items it produced. The outline cache keeps them so that an
 * edit reparses only the statements it touched (`incremental.ts`, docs/outline.md "Re-outlining after an edit").
 * Also the flat form in which pieces cross from a worker thread (see `outline-wire.ts` for why flat).
 */
import type { OutlineItem } from './extract';

export interface Piece {
  /** UTF-16 offsets in the parsed text; decorators included. */
  start: number;
  end: number;
  /**
   * Nothing that follows can continue it: it ends with `;`, or it is a declaration or block closed by `}`. A
   * JavaScript statement without either can absorb the next line (`a = b` then `(c)` is a call), so a reparse may not
   * start or end beside it. Always true in Python, where a statement ends at its line's end.
   */
  closed: boolean;
  /** The outline items this piece produced (a container's members hang off its one item). */
  items: OutlineItem[];
  body: PieceBody | null;
}

/** The members of a container (class, namespace), listed as its item's children. */
export interface PieceBody {
  /** The span inside the container's braces (Python: from after the header's colon to the block's end). */
  start: number;
  end: number;
  /**
   * One line of text that, put before a slice of the body (and `tail` after it), makes the slice parse on its own
   * as the same kind of container, e.g. `export declare class A extends B {` … `}`; '' when the header cannot be
   * put on one line safely (a comment or template in it): then the body is never reparsed alone.
   */
  head: string;
  tail: string;
  /** Depth of the members (0 = top level; below 0, members that list nothing: a function's statements, an interface's members). */
  depth: number;
  pieces: Piece[];
  /**
   * Characters not yet added to the offsets of `pieces`: a body whose members list nothing (depth below 0) is moved
   * lazily, since most edits never look inside it and a big `.d.ts` holds thousands of such members. Read the
   * pieces of such a body through `settledPieces`.
   */
  pending?: number;
}

/** A place where a parse failed, for the tool's answer. */
export interface ParseProblem {
  /** 1-based. */
  line: number;
  message: string;
}

export interface ParsedText {
  items: OutlineItem[];
  /** Null for languages without incremental support. */
  pieces: Piece[] | null;
  /** Empty when the text parsed cleanly. */
  problems: ParseProblem[];
}

/** Moves a piece list (and every item and body in it) by `chars` offsets and `lines` lines. */
export function shiftPieces(pieces: readonly Piece[], chars: number, lines: number, from = 0): void {
  for (let k = from; k < pieces.length; k++) {
    const piece = pieces[k]!;
    piece.start += chars;
    piece.end += chars;
    if (piece.body) {
      piece.body.start += chars;
      piece.body.end += chars;
      if (piece.body.depth < 0)
        piece.body.pending = (piece.body.pending ?? 0) + chars; // no items, no lines to move
      else shiftPieces(piece.body.pieces, chars, lines);
    }
    if (lines === 0) continue; // an edit within a line moves no line numbers
    // A container's item children are its body's items: shifted once, through the body.
    for (const item of piece.items) {
      item.line += lines;
      item.endLine += lines;
      if (!piece.body) shiftItems(item.children, lines);
    }
  }
}

/** A body's pieces with every lazy move (`PieceBody.pending`) applied. */
export function settledPieces(body: PieceBody): Piece[] {
  const chars = body.pending ?? 0;
  if (chars !== 0) {
    body.pending = 0;
    shiftPieces(body.pieces, chars, 0);
  }
  return body.pieces;
}

export function shiftItems(items: readonly OutlineItem[], lines: number): void {
  for (const item of items) {
    item.line += lines;
    item.endLine += lines;
    shiftItems(item.children, lines);
  }
}

export type FlatPieces = (string | number)[];

/**
 * Depth first: the count of a list, then per piece: start, end, closed (0/1), body (0/1; when 1: its start, end,
 * head, tail and depth), the item count and each item (kind, name, line, endLine, signature, then, only when the
 * piece has no body, its children as an item list), then, when the piece has a body, the body's piece list (whose
 * items are the one item's children).
 */
export function encodePieces(pieces: readonly Piece[]): FlatPieces {
  const out: FlatPieces = [];
  const putItems = (items: readonly OutlineItem[]): void => {
    out.push(items.length);
    for (const item of items) {
      out.push(item.kind, item.name, item.line, item.endLine, item.signature);
      putItems(item.children);
    }
  };
  const putList = (list: readonly Piece[]): void => {
    out.push(list.length);
    for (const piece of list) {
      const b = piece.body;
      out.push(piece.start, piece.end, piece.closed ? 1 : 0);
      if (b) out.push(1, b.start, b.end, b.head, b.tail, b.depth);
      else out.push(0);
      out.push(piece.items.length);
      for (const item of piece.items) {
        out.push(item.kind, item.name, item.line, item.endLine, item.signature);
        if (!b) putItems(item.children);
      }
      if (b) putList(b.pieces);
    }
  };
  putList(pieces);
  return out;
}

/** The pieces back, offsets moved by `chars` and lines by `lines` (where a part starts in the whole file). */
export function decodePieces(flat: FlatPieces, chars = 0, lines = 0): Piece[] {
  let at = 0;
  const num = () => flat[at++] as number;
  const str = () => flat[at++] as string;
  const item = (): OutlineItem => {
    const kind = str();
    const name = str();
    const line = num() + lines;
    const endLine = num() + lines;
    return { kind, name, line, endLine, signature: str(), children: [] };
  };
  const takeItems = (): OutlineItem[] => {
    const count = num();
    const list: OutlineItem[] = [];
    for (let k = 0; k < count; k++) {
      const it = item();
      it.children = takeItems();
      list.push(it);
    }
    return list;
  };
  const takeList = (): Piece[] => {
    const count = num();
    const list: Piece[] = [];
    for (let k = 0; k < count; k++) {
      const start = num() + chars;
      const end = num() + chars;
      const closed = num() === 1;
      let body: PieceBody | null = null;
      if (num() === 1)
        body = { start: num() + chars, end: num() + chars, head: str(), tail: str(), depth: num(), pieces: [] };
      const itemCount = num();
      const items: OutlineItem[] = [];
      for (let i = 0; i < itemCount; i++) {
        const it = item();
        if (!body) it.children = takeItems();
        items.push(it);
      }
      if (body) {
        body.pieces = takeList();
        if (items[0]) items[0].children = body.pieces.flatMap((p) => p.items);
      }
      list.push({ start, end, closed, items, body });
    }
    return list;
  };
  return takeList();
}

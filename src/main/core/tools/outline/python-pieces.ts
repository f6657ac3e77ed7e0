/**
 * The pieces (`pieces.ts`) of a Python tree from tree-sitter: the module's statements and, inside the classes the
 * outline lists members of, the class body's statements. Built beside the outline walk and paired with its items by
 * line: each item belongs to the one statement whose lines hold it. A reparsed slice of a class body is put after
 * `class _:` (Python's block structure does not depend on the class's header).
 */
import type { Node, TreeCursor } from 'web-tree-sitter';
import { MAX_DEPTH, type OutlineItem } from './extract';
import type { Piece } from './pieces';

const CLASS_HEAD = 'class _:';

export function pythonPieces(root: Node, items: readonly OutlineItem[], depth: number): Piece[] {
  const cursor = root.walk();
  try {
    return statementsOf(cursor, items, depth);
  } finally {
    cursor.delete();
  }
}

/** The statements under the cursor's node, each with the items (in order) whose first line it holds. */
function statementsOf(cursor: TreeCursor, items: readonly OutlineItem[], depth: number): Piece[] {
  const out: Piece[] = [];
  let next = 0;
  if (!cursor.gotoFirstChild()) return out;
  do {
    if (!cursor.nodeIsNamed || cursor.nodeType === 'comment') continue;
    const piece: Piece = { start: cursor.startIndex, end: cursor.endIndex, closed: true, items: [], body: null };
    const lastLine = cursor.endPosition.row + 1;
    while (next < items.length && items[next]!.line <= lastLine) piece.items.push(items[next++]!);
    const item = piece.items.length === 1 ? piece.items[0]! : null;
    if (
      item &&
      item.kind === 'class' &&
      depth < MAX_DEPTH &&
      (cursor.nodeType === 'class_definition' || cursor.nodeType === 'decorated_definition')
    ) {
      piece.body = classBody(cursor.currentNode, item, depth + 1);
    }
    out.push(piece);
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return out;
}

function classBody(node: Node, item: OutlineItem, depth: number): Piece['body'] {
  const definition = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
  const block = definition?.childForFieldName('body');
  if (!definition || !block) return null;
  // The body begins right after the header's colon, so a slice of it starts with the newline before a member.
  let colonEnd = -1;
  for (const child of definition.children) {
    if (child && child.type === ':') colonEnd = child.endIndex;
  }
  if (colonEnd < 0 || colonEnd > block.startIndex) return null;
  const cursor = block.walk();
  try {
    const pieces = statementsOf(cursor, item.children, depth);
    return { start: colonEnd, end: block.endIndex, head: CLASS_HEAD, tail: '', depth, pieces };
  } finally {
    cursor.delete();
  }
}

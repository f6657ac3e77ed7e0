/**
 * Parse + extract on the current thread: the unit of work of the outline workers (`outline-worker.ts`), and the
 * fallback when no worker can run. One parser per grammar, created once and reused for every file.
 */
import type { Node, Parser } from 'web-tree-sitter';
import { createParser, type GrammarId } from '../../treesitter/grammars';
import { blankMacros } from './c-macros';
import { outlineTree, type OutlineItem } from './extract';
import { LANGUAGE_SPECS } from './languages';
import type { ParsedText, ParseProblem } from './pieces';
import { pythonPieces } from './python-pieces';

export interface TreeOutline extends ParsedText {
  /** The tree holds an ERROR or MISSING node: a chunk cut at a wrong place shows up here. */
  hasError: boolean;
}

const MAX_PROBLEMS = 5;

export class ParserGaveUpError extends Error {
  constructor() {
    super('The parser gave up on this file.');
  }
}

const parsers = new Map<GrammarId, Promise<Parser>>();

function parserFor(id: GrammarId): Promise<Parser> {
  let p = parsers.get(id);
  if (!p) {
    p = createParser(id);
    // A grammar that failed to load is retried by the next call instead of failing forever.
    p.catch(() => parsers.delete(id));
    parsers.set(id, p);
  }
  return p;
}

/**
 * Parse + outline of `text`, whose top-level definitions sit at `depth` (0 for a whole file). Python also gets its
 * pieces, for the incremental path; a tree with errors gets the lines of its first ERROR and MISSING nodes.
 */
export async function outlineOnThisThread(grammar: GrammarId, text: string, depth = 0): Promise<TreeOutline> {
  const parser = await parserFor(grammar);
  const tree = parser.parse(text);
  if (!tree) throw new ParserGaveUpError();
  try {
    const root = tree.rootNode;
    let items = outlineTree(root, LANGUAGE_SPECS[grammar], text, depth);
    const hasError = root.hasError;
    const problems = hasError ? treeProblems(root) : [];
    if (hasError && (grammar === 'c' || grammar === 'cpp')) {
      const unmacroed = withoutMacros(parser, grammar, text, root, depth);
      if (unmacroed) {
        items = unmacroed;
        for (const p of problems) p.message += ' (the outline below is read with the macros it cannot expand left out)';
      }
    }
    const pieces = grammar === 'python' && !hasError ? pythonPieces(root, items, depth) : null;
    return { items, hasError, problems, pieces };
  } finally {
    tree.delete(); // wasm memory is not garbage-collected
  }
}

/** C and C++: the outline of the text with its attribute-like macros blanked (`c-macros.ts`), when that parses better. */
function withoutMacros(
  parser: Parser,
  grammar: GrammarId,
  text: string,
  raw: Node,
  depth: number,
): OutlineItem[] | null {
  const blanked = blankMacros(text);
  if (blanked === null) return null;
  const tree = parser.parse(blanked);
  if (!tree) return null;
  try {
    if (errorSpan(tree.rootNode) >= errorSpan(raw)) return null;
    return outlineTree(tree.rootNode, LANGUAGE_SPECS[grammar], blanked, depth);
  } finally {
    tree.delete();
  }
}

/**
 * How much of the text a tree's ERROR nodes cover (a MISSING node counts one): the measure of a worse parse, since
 * one ERROR node can swallow the rest of a file.
 */
function errorSpan(root: Node): number {
  let n = 0;
  const visit = (node: Node): void => {
    for (const child of node.children) {
      if (!child) continue;
      if (child.isError) n += child.endIndex - child.startIndex;
      else if (child.isMissing) n++;
      else if (child.hasError) visit(child);
    }
  };
  visit(root);
  return n;
}

/** Where the tree failed: its first ERROR nodes (text the grammar could not place) and MISSING ones (inserted). */
function treeProblems(root: Node): ParseProblem[] {
  const out: ParseProblem[] = [];
  const visit = (node: Node): void => {
    for (const child of node.children) {
      if (out.length >= MAX_PROBLEMS) return;
      if (!child) continue;
      if (child.isError)
        out.push({ line: child.startPosition.row + 1, message: 'syntax error: text the grammar could not place' });
      else if (child.isMissing)
        out.push({ line: child.startPosition.row + 1, message: `syntax error: missing ${child.type}` });
      else if (child.hasError) visit(child);
    }
  };
  visit(root);
  if (out.length === 0) out.push({ line: root.startPosition.row + 1, message: 'syntax error' });
  return out;
}

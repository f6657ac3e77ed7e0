/**
 * Parse + extract on the current thread: the unit of work of the outline workers (`outline-worker.ts`), and the
 * fallback when no worker can run. One parser per grammar, created once and reused for every file.
 */
import type { Parser } from 'web-tree-sitter';
import { createParser, type GrammarId } from '../../treesitter/grammars';
import { outlineTree, type OutlineItem } from './extract';
import { LANGUAGE_SPECS } from './languages';

export interface TreeOutline {
  items: OutlineItem[];
  /** The tree holds an ERROR or MISSING node: a chunk cut at a wrong place shows up here. */
  hasError: boolean;
}

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

export async function outlineOnThisThread(grammar: GrammarId, text: string): Promise<TreeOutline> {
  const parser = await parserFor(grammar);
  const tree = parser.parse(text);
  if (!tree) throw new ParserGaveUpError();
  try {
    return { items: outlineTree(tree.rootNode, LANGUAGE_SPECS[grammar], text), hasError: tree.rootNode.hasError };
  } finally {
    tree.delete(); // wasm memory is not garbage-collected
  }
}

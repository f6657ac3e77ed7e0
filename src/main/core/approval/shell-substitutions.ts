/**
 * The command substitutions of a parsed command line that run (docs/shell-analysis.md): `$(…)`, backticks and
 * process substitutions, except those in the body of a here-document with a quoted delimiter (that body is text).
 * `shell.ts` reads the commands in each as parts a deny must catch, and marks the command unsafe for them.
 */
import type { Node } from 'web-tree-sitter';

/** How many command substitutions inside one another the walk follows; deeper ones make the command unsafe. */
export const MAX_SUBSTITUTION_DEPTH = 8;
const SUBSTITUTIONS = new Set(['command_substitution', 'process_substitution']);

/**
 * The substitutions under `root` that run (not those in the body of a here-document with a quoted delimiter: that
 * body is text), in the tree's order, down to MAX_SUBSTITUTION_DEPTH inside one another; `isTooDeep` when there were
 * deeper ones. One pass down the tree with a cursor: tree-sitter finds a node's parent by walking down from the root,
 * so looking up from each substitution for a here-document made 400 nested `$(` cost the gate 2 s, and 1,600 more
 * than two minutes (docs/shell-analysis.md "Bad input").
 */
export function runningSubstitutions(root: Node): { nodes: Node[]; isTooDeep: boolean } {
  const nodes: Node[] = [];
  let isTooDeep = false;
  const cursor = root.walk();
  // For each node on the way down: how many substitutions hold it, and whether the nearest here-document body
  // around it is quoted (then nothing in it runs).
  const context: { depth: number; isQuoted: boolean; node: Node }[] = [];
  try {
    for (;;) {
      const node = cursor.currentNode;
      const around = context.at(-1);
      let depth = around?.depth ?? 0;
      let isQuoted = around?.isQuoted ?? false;
      let descends = true;
      if (node.type === 'heredoc_body') {
        const start = around?.node.children.find((c) => c?.type === 'heredoc_start');
        isQuoted = !!start && /['"\\]/.test(start.text);
      } else if (SUBSTITUTIONS.has(node.type) && !isQuoted) {
        if (depth >= MAX_SUBSTITUTION_DEPTH) (isTooDeep = true), (descends = false);
        else nodes.push(node), depth++;
      }
      if (descends && cursor.gotoFirstChild()) {
        context.push({ depth, isQuoted, node });
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (context.length === 0 || !cursor.gotoParent()) return { nodes, isTooDeep };
        context.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}

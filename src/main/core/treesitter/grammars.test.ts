import { describe, expect, it } from 'vitest';
import { createParser, GRAMMAR_WASM, type GrammarId } from './grammars';

describe('tree-sitter grammars', () => {
  it('loads every listed grammar from its npm package and parses a line', async () => {
    for (const id of Object.keys(GRAMMAR_WASM) as GrammarId[]) {
      const parser = await createParser(id);
      const tree = parser.parse('x');
      expect(tree?.rootNode.type, id).toBeTruthy();
    }
  });

  it('parses a compound bash command into its parts', async () => {
    const parser = await createParser('bash');
    const tree = parser.parse('git status && rm -rf x');
    expect(tree!.rootNode.toString()).toContain('list');
    expect(tree!.rootNode.descendantsOfType('command')).toHaveLength(2);
  });
});

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNCALLED_BODY_SIZE } from '../../../../test/helpers/grammar-compile-child';
import { createParser, GRAMMAR_WASM, prefetchGrammar, type GrammarId } from './grammars';

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

describe('the shell grammar compiled ahead (docs/shell-analysis.md "Cold start")', () => {
  it('compiles every function of a prefetched grammar before its first parse, and leaves lazy compilation on for other modules', async () => {
    const root = join(import.meta.dirname, '..', '..', '..', '..');
    // V8 prints the trace from its compile threads; on a busy machine a line can come out broken or not at all, so
    // the child runs again (at most five times: three runs in a row without it were seen on a loaded machine) until
    // its trace shows the lexer. Every run's trace counts against the second check: in none may the module that was
    // never called have been compiled.
    const runs: { tier: string; size: number }[][] = [];
    while (runs.length < 5 && !runs.some((r) => r.some((c) => c.tier === 'Liftoff' && c.size > 100_000))) {
      const child = spawnSync(
        process.execPath,
        [
          '--trace-wasm-compilation-times',
          '--import',
          'tsx',
          join(root, 'test/helpers/grammar-compile-child.ts'),
          'run',
        ],
        { cwd: root, encoding: 'utf8' },
      );
      expect(child.stdout + child.stderr).toContain('child done');
      runs.push(
        [...child.stdout.matchAll(/Compiled function \S+ using (\w+).*?bodysize (\d+)/g)].map(([, tier, size]) => ({
          tier: tier!,
          size: Number(size),
        })),
      );
    }
    // The bash lexer (one function of about 160 KB) was compiled though nothing called it: eagerly, off the main thread.
    expect(runs.some((r) => r.some((c) => c.tier === 'Liftoff' && c.size > 100_000))).toBe(true);
    // A module compiled afterwards is compiled lazily again: its function, never called, was never compiled.
    expect(runs.some((r) => r.some((c) => c.size === UNCALLED_BODY_SIZE))).toBe(false);
  });

  it('resolves the prefetch only after a turn of the event loop, where V8 starts the compile on its threads', async () => {
    // The core awaits the prefetch before its database holds the main thread: the compile's step on the event loop
    // must have had its turn by then (docs/shell-analysis.md "Cold start").
    let turned = false;
    setImmediate(() => (turned = true));
    await prefetchGrammar('bash');
    expect(turned).toBe(true);
  });
});

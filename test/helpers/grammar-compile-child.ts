/**
 * Child for src/main/core/treesitter/grammars.test.ts, run with V8's `--trace-wasm-compilation-times` (one line per
 * WebAssembly function compiled, with its body size): prefetches and loads the bash grammar without parsing anything,
 * then compiles a small module of its own and never calls it. With the grammar compiled eagerly and V8's lazy
 * compilation restored after it, the trace shows the grammar's big lexer function compiled, and not the small one.
 * V8 prints its trace through C's buffered stdout, flushed in blocks: the child's own line goes to stderr, so that no
 * write of Node's lands inside a trace line half flushed.
 */
import { leb } from '../../src/main/core/tools/fs/grep-folded';
import { loadLanguage, prefetchGrammar } from '../../src/main/core/treesitter/grammars';

/** A module with one function `() => {}` whose body is `UNCALLED_BODY_SIZE` bytes (no locals, nops, end). */
export const UNCALLED_BODY_SIZE = 5_001;

function moduleWithOneFunction(): Uint8Array<ArrayBuffer> {
  const body = [0x00, ...new Array<number>(UNCALLED_BODY_SIZE - 2).fill(0x01), 0x0b];
  const code = [0x01, ...leb(body.length), ...body];
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00, // magic, version
    0x01,
    0x04,
    0x01,
    0x60,
    0x00,
    0x00, // types: () => ()
    0x03,
    0x02,
    0x01,
    0x00, // functions: one of type 0
    0x0a,
    ...leb(code.length),
    ...code,
  ]);
}

if (process.argv[2] === 'run') {
  void prefetchGrammar('bash');
  await loadLanguage('bash');
  await WebAssembly.compile(moduleWithOneFunction());
  process.stderr.write('child done\n');
}

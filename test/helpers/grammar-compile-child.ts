/**
 * Child for src/main/core/treesitter/grammars.test.ts, run with V8's `--trace-wasm-compilation-times` (one line per
 * WebAssembly function compiled, with its body size, in the order compiled):
 * - `run`: prefetches and loads the bash grammar without parsing anything, then compiles a small module of its own and
 *   never calls it. With the grammar compiled eagerly and V8's lazy compilation restored after it, the trace shows the
 *   grammar's big lexer function compiled, and not the small one.
 * - `held`: awaits the prefetch, then holds the main thread (a synchronous wait: no event loop, as the database holds
 *   it at the core's start), then compiles and calls a small module of its own, whose line in the trace marks the end
 *   of the hold. The lexer's line comes before it when the compile ran on V8's threads during the hold.
 */
import { loadLanguage, prefetchGrammar } from '../../src/main/core/treesitter/grammars';

/** A module with one function `() => {}` whose body is `UNCALLED_BODY_SIZE` bytes (no locals, nops, end). */
export const UNCALLED_BODY_SIZE = 5_001;
/** The body size of the function that marks the end of the hold (`held`). */
export const MARKER_BODY_SIZE = 5_003;
/** How long `held` holds the main thread: far longer than the grammar's compile takes even on a loaded machine. */
const HOLD_MS = 3_000;

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
}

/** The module, its function exported as `f`. */
function moduleWithOneFunction(bodySize: number): Uint8Array<ArrayBuffer> {
  const body = [0x00, ...new Array<number>(bodySize - 2).fill(0x01), 0x0b];
  const code = [0x01, ...leb(body.length), ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
    0x01, 0x04, 0x01, 0x60, 0x00, 0x00, // types: () => ()
    0x03, 0x02, 0x01, 0x00, // functions: one of type 0
    0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, // exports: "f", function 0
    0x0a, ...leb(code.length), ...code,
  ]);
}

if (process.argv[2] === 'run') {
  void prefetchGrammar('bash');
  await loadLanguage('bash');
  await WebAssembly.compile(moduleWithOneFunction(UNCALLED_BODY_SIZE));
  process.stdout.write('child done\n');
} else if (process.argv[2] === 'held') {
  await prefetchGrammar('bash');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HOLD_MS);
  const marker = new WebAssembly.Instance(new WebAssembly.Module(moduleWithOneFunction(MARKER_BODY_SIZE)));
  (marker.exports.f as () => void)();
  await loadLanguage('bash');
  process.stdout.write('child done\n');
}

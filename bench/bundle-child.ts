/**
 * Bench children that must start like the app: a TypeScript child script (it imports the app's sources) bundled by
 * esbuild into one ES module under `out/bench-children/`, its npm packages left to Node, as electron-vite builds
 * `out/main` (dependencies external). Run with plain `node`, a fresh child then loads what `node out/main/web.js`
 * loads, the way it loads it: through tsx, every package would also pass tsx's on-the-fly transform (about 200 ms
 * for web-tree-sitter alone on this machine, against 10 ms from Node), which is not the app's start.
 */
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { BUNDLED_LIKE_THE_APP } from '../src/main/core/workers/spawn-worker';

const OUT = join(import.meta.dirname, '..', 'out', 'bench-children');

/**
 * The bundled child's path (rebuilt on every call: a bench always runs the current sources). `outfile` names it where
 * a caller needs a fixed name (a worker's entry that the child starts from beside it); by default it goes under
 * `out/bench-children/`, named after its entry and this process.
 */
export async function bundleChild(
  entry: string,
  outfile = join(OUT, `${basename(entry, '.ts')}-${process.pid}.mjs`),
): Promise<string> {
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    ...BUNDLED_LIKE_THE_APP,
    entryPoints: [entry],
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

/**
 * A child script of the tests, bundled once with esbuild (its packages left to Node) into a plain `.mjs` under `out/`
 * (ignored), so its packages resolve from the repo's node_modules: a test that starts it many times (a crash test
 * killing it at random moments) starts each in a fraction of `node --import tsx`'s time, which transpiles the script
 * and everything it imports again in every process. Removed with `rmSync` by the test that made it.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(__dirname, '../..');

/** Bundles `test/helpers/<name>.ts` and answers the path of the `.mjs` to run with `node`. */
export async function bundleChild(name: string): Promise<string> {
  const outfile = join(root, 'out', 'test-children', `${name}-${process.pid}.mjs`);
  await build({
    entryPoints: [join(root, 'test', 'helpers', `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
  return outfile;
}

/**
 * A child script of the tests, bundled once with esbuild (its packages left to Node) into a plain `.mjs` under `out/`
 * (ignored), so its packages resolve from the repo's node_modules: a test that starts it many times (a crash test
 * killing it at random moments) starts each in a fraction of `node --import tsx`'s time, which transpiles the script
 * and everything it imports again in every process. The bundling is the bench's (`bench/bundle-child.ts`), which
 * starts its children the same way. Removed with `rmSync` by the test that made it.
 */
import { join } from 'node:path';
import { bundleChild as bundle } from '../../bench/bundle-child';

const root = join(__dirname, '../..');

/** Bundles `test/helpers/<name>.ts` and answers the path of the `.mjs` to run with `node`. */
export function bundleChild(name: string): Promise<string> {
  return bundle(
    join(root, 'test', 'helpers', `${name}.ts`),
    join(root, 'out', 'test-children', `${name}-${process.pid}.mjs`),
  );
}

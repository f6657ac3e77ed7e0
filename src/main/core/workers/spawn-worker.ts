/**
 * Starts a worker thread from a module of ours, in the built app or from source (docs/architecture.md "Tests").
 * - Built (electron-vite): every entry and chunk sits in `out/main/` (electron.vite.config.ts), so `<entry>.js` is
 *   beside this module's chunk.
 * - From source (vitest, tsx, `npm run bench`): only the `.ts` file exists, which a bare worker cannot load. The
 *   thread bundles it with esbuild first, as electron-vite bundles it: our TypeScript in one ES module, npm packages
 *   left to Node. A worker started through tsx's loader instead passed every package it loads through tsx's transform:
 *   a PDF read's thread took about 1.6 CPU-seconds that way (pdf.js), against about 0.55 bundled. The bundling runs
 *   in the new thread, never on the caller's (its event loop does not wait for esbuild). esbuild is a dev
 *   dependency, so this path never runs in the built app.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * How a module of ours is bundled to run as the built app runs it (electron-vite: one ES module for Node 20, npm
 * packages left to Node). The one copy: the source workers below and the bench's and tests' children
 * (bench/bundle-child.ts) use it.
 */
export const BUNDLED_LIKE_THE_APP = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
} as const;

export function spawnWorker(builtEntry: string, source: URL, options: WorkerOptions = {}): Worker {
  const built = new URL(`./${builtEntry}`, import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built, options);
  return new Worker(bundleThenRun(source), { ...options, eval: true });
}

/**
 * The thread's first code from source: bundle the worker's module into `out/source-workers/` (beside the built app,
 * so its packages resolve from the project's node_modules, and outside any tree the tests and the bench search),
 * named after its entry and its content, then import it. A bundle already there is used as it is; a thread writing
 * the same bundle at the same time renames its own copy over it whole.
 */
function bundleThenRun(source: URL): string {
  const require = createRequire(import.meta.url);
  const esbuild = require.resolve('esbuild');
  const root = dirname(dirname(dirname(require.resolve('esbuild/package.json'))));
  const dir = join(root, 'out', 'source-workers');
  const entry = fileURLToPath(source);
  const options = { ...BUNDLED_LIKE_THE_APP, entryPoints: [entry], write: false, logLevel: 'error' };
  return `(async () => {
  const { buildSync } = await import(${JSON.stringify(pathToFileURL(esbuild).href)});
  const { createHash } = await import('node:crypto');
  const fs = await import('node:fs');
  const { pathToFileURL } = await import('node:url');
  const { threadId } = await import('node:worker_threads');
  const text = buildSync(${JSON.stringify(options)}).outputFiles[0].text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const path = ${JSON.stringify(join(dir, basename(entry, '.ts')))} + '-' + hash + '.mjs';
  if (!fs.existsSync(path)) {
    fs.mkdirSync(${JSON.stringify(dir)}, { recursive: true });
    const partial = path + '.' + process.pid + '-' + threadId + '.partial';
    fs.writeFileSync(partial, text);
    fs.renameSync(partial, path);
  }
  await import(pathToFileURL(path).href);
})();`;
}

/**
 * Starts a worker thread from a module of ours, in the built app or from source (docs/architecture.md "Tests").
 * - Built (electron-vite): every entry and chunk sits in `out/main/` (electron.vite.config.ts), so `<entry>.js` is
 *   beside this module's chunk.
 * - From source (vitest, tsx, `npm run bench`): only the `.ts` file exists, which a bare worker cannot load. It is
 *   bundled by esbuild as electron-vite bundles it: our TypeScript in one ES module, npm packages left to Node. A
 *   worker started through tsx's loader instead passed every package it loads through tsx's transform, each time one
 *   started: a PDF read's thread took about 1.6 CPU-seconds that way (pdf.js), against a few hundredths loaded as
 *   the app loads it. esbuild and tsx are dev dependencies, so this path never runs in the built app.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function spawnWorker(builtEntry: string, source: URL, options: WorkerOptions = {}): Worker {
  const built = new URL(`./${builtEntry}`, import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built, options);
  return new Worker(sourceBundle(source), options);
}

/** Each source's bundle, made once per process (the sources do not change under a running test or bench). */
const bundles = new Map<string, string>();

/**
 * The worker's source bundled into `node_modules/.cache/skald-workers/`, named after its entry and its content: the
 * packages it imports resolve from there as from the sources, a bundle already there is used as it is, and a process
 * writing the same bundle at the same time renames its own copy over it whole.
 */
function sourceBundle(source: URL): string {
  const known = bundles.get(source.href);
  if (known) return known;
  const require = createRequire(import.meta.url);
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  const { outputFiles } = buildSync({
    entryPoints: [fileURLToPath(source)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'error',
  });
  const text = outputFiles[0]!.text;
  const nodeModules = dirname(dirname(require.resolve('esbuild/package.json')));
  const dir = join(nodeModules, '.cache', 'skald-workers');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const path = join(dir, `${basename(fileURLToPath(source), '.ts')}-${hash}.mjs`);
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, path);
  }
  bundles.set(source.href, path);
  return path;
}

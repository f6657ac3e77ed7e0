/**
 * Starts a worker thread from a module of ours, in the built app or from source.
 * - Built (electron-vite): every entry and chunk sits in `out/main/` (electron.vite.config.ts), so `<entry>.js` is
 *   beside this module's chunk.
 * - From source (vitest, tsx, `npm run bench`): only the `.ts` file exists, which a bare worker cannot load; it is
 *   imported through tsx's loader API. tsx is a dev dependency, so this path never runs in the built app.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function spawnWorker(builtEntry: string, source: URL, options: WorkerOptions = {}): Worker {
  const built = new URL(`./${builtEntry}`, import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const href = JSON.stringify(source.href);
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${href}, ${href}))`, {
    ...options,
    eval: true,
  });
}

#!/usr/bin/env node
/**
 * `npm test`: every test, in order — the formatter's check (`npm run lint`), typecheck, vitest (unit + integration, including the layer test), then a
 * build and the Playwright e2e tests in Chromium against the web shape. Stops at the first failing step.
 *
 * What the tests need is settled first, so a machine without it learns at once rather than after the slow steps: the
 * programs they use (python3, ps, git, rg, latexmk, xelatex, bwrap, strace: scripts/test-prerequisites.mjs), one line
 * naming what is missing and the packages that install it; then the browser: CHROMIUM_PATH, an installed
 * Chrome/Chromium, or Playwright's own; when there is none, Playwright's Chromium is fetched (`playwright install
 * chromium`, which needs the internet); offline, one line says what to install (scripts/chromium.mjs).
 * The whole run takes about 25 minutes on a 2-core machine (README "Running the tests").
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureChromium, findChromium } from './chromium.mjs';
import { missingLine, missingPrograms } from './test-prerequisites.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const env = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };

const missing = missingLine(missingPrograms());
if (missing) {
  console.error(missing);
  process.exit(1);
}

const browser = ensureChromium({
  find: () => findChromium(),
  install: () => {
    // Its own progress and errors go to the console; offline it fails after a few tries and we say what to do.
    const run = spawnSync(process.execPath, [bin('@playwright/test', 'cli.js'), 'install', 'chromium'], {
      cwd: root,
      stdio: 'inherit',
      env,
      timeout: 15 * 60_000,
    });
    return run.status === 0;
  },
  log: (line) => console.log(line),
});
if ('error' in browser) {
  console.error(`\n${browser.error}`);
  process.exit(1);
}
console.log(`Chromium for the e2e tests: ${browser.path}`);
env.CHROMIUM_PATH = browser.path;

const steps = [
  ['lint', [bin('@biomejs/biome', 'bin/biome'), 'ci', '.', '--colors=off']],
  ['typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit']],
  ['vitest', [bin('vitest', 'vitest.mjs'), 'run']],
  ['build', [bin('electron-vite', 'bin/electron-vite.js'), 'build', '--logLevel', 'error']],
  ['e2e', [bin('@playwright/test', 'cli.js'), 'test']],
];

for (const [name, args] of steps) {
  console.log(`\n== ${name} ==`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`\n${name} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}
console.log('\nAll test steps passed.');

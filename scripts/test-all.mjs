#!/usr/bin/env node
/**
 * `npm test`: every test — the formatter's check (`npm run lint`), the typecheck and a build side by side, then vitest
 * (unit + integration, including the layer test), then the Playwright e2e tests in Chromium against the web and desktop
 * shapes. Stops at the first failing step (of the three side by side, after all three have ended).
 *
 * What the tests need is settled first, so a machine without it learns at once rather than after the slow steps: the
 * programs they use (python3, ps, git, rg, latexmk, xelatex, bwrap, strace: scripts/test-prerequisites.mjs), one line
 * naming what is missing and the packages that install it; then the browser: CHROMIUM_PATH, an installed
 * Chrome/Chromium, or Playwright's own; when there is none, Playwright's Chromium is fetched (`playwright install
 * chromium`, which needs the internet); offline, one line says what to install (scripts/chromium.mjs).
 * The whole run takes about 30 minutes on a 2-core machine (README "Running the tests").
 */
import { spawn, spawnSync } from 'node:child_process';
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

/**
 * The checks come first, side by side: the formatter's check, the typecheck and the build are each mostly one thread
 * and need nothing of one another (the build only has to be there for the e2e tests), so on two cores they take
 * about as long as the longest of them. Their output is shown as each one ends, under its name.
 */
const checks = [
  ['lint', [bin('@biomejs/biome', 'bin/biome'), 'ci', '.', '--colors=off']],
  ['typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit']],
  ['build', [bin('electron-vite', 'bin/electron-vite.js'), 'build', '--logLevel', 'error']],
];
const steps = [
  ['vitest', [bin('vitest', 'vitest.mjs'), 'run']],
  ['e2e', [bin('@playwright/test', 'cli.js'), 'test']],
];

const seconds = (start) => `${((Date.now() - start) / 1000).toFixed(0)} s`;
const fail = (name, code) => {
  console.error(`\n${name} failed (exit ${code}).`);
  process.exit(typeof code === 'number' ? code || 1 : 1);
};

/** Runs one step with its output captured, and prints it under the step's name when the step ends. */
function runCaptured(name, args) {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (code, signal) => {
      console.log(`\n== ${name} (${seconds(start)}) ==\n${out.trimEnd()}`);
      resolve({ name, code: code ?? signal });
    });
  });
}

const results = await Promise.all(checks.map(([name, args]) => runCaptured(name, args)));
for (const { name, code } of results) if (code !== 0) fail(name, code);

for (const [name, args] of steps) {
  const start = Date.now();
  console.log(`\n== ${name} ==`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) fail(name, result.status ?? result.signal);
  console.log(`(${name}: ${seconds(start)})`);
}
console.log('\nAll test steps passed.');

#!/usr/bin/env node
/**
 * `npm test`: every test — the formatter's check (`npm run lint`), the typecheck, vitest (unit + integration,
 * including the layer test) and a build, side by side, and the Playwright e2e tests in Chromium against the web and
 * desktop shapes as soon as the build is there. The first step that fails stops the others.
 *
 * What the tests need is settled first, so a machine without it learns at once rather than after the slow steps: the
 * programs they use (python3, ps, git, rg, latexmk, xelatex, bwrap, strace: scripts/test-prerequisites.mjs), one line
 * naming what is missing and the packages that install it; then the browser: CHROMIUM_PATH, an installed
 * Chrome/Chromium, or Playwright's own; when there is none, Playwright's Chromium is fetched (`playwright install
 * chromium`, which needs the internet); offline, one line says what to install (scripts/chromium.mjs).
 * How long it takes, and where the time goes: README "Running the tests".
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
 * The steps, side by side (measured: README "Running the tests"): the formatter's check, the typecheck, the build and
 * vitest start at once; the e2e tests start as soon as the build is there (they run the built app). vitest runs two
 * files at a time and Playwright three workers (vitest.config.ts, playwright.config.ts): each test waits much of its time
 * (on a child process, a server, a browser, the disk), so five of them keep two cores busy. Each line of output is
 * shown as it comes, under its step's name; a step that fails stops the others at once.
 */
const CHECKS = [
  ['lint', [bin('@biomejs/biome', 'bin/biome'), 'ci', '.', '--colors=off']],
  ['typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit']],
  ['vitest', [bin('vitest', 'vitest.mjs'), 'run']],
];
const BUILD = ['build', [bin('electron-vite', 'bin/electron-vite.js'), 'build', '--logLevel', 'error']];
const E2E = ['e2e', [bin('@playwright/test', 'cli.js'), 'test']];

const started = Date.now();
const seconds = (start) => `${((Date.now() - start) / 1000).toFixed(0)} s`;
const running = new Set();

/** Ends every step still running (each in its own process group: vitest's and Playwright's children with it). */
function stopAll() {
  for (const child of running) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Runs one step, each line of its output shown under its name; resolves when it ends, and stops all if it failed. */
function run([name, args]) {
  const start = Date.now();
  console.log(`[${name}] started`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    running.add(child);
    const show = (stream) => {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk).split('\n');
        rest = lines.pop();
        for (const line of lines) console.log(`[${name}] ${line}`);
      });
      stream.on('end', () => rest && console.log(`[${name}] ${rest}`));
    };
    show(child.stdout);
    show(child.stderr);
    child.on('close', (code, signal) => {
      running.delete(child);
      if (code === 0) {
        console.log(`[${name}] passed (${seconds(start)})`);
        return resolve();
      }
      console.error(
        `\n${name} failed (${signal ?? `exit ${code}`}, after ${seconds(start)}); the other steps are stopped.`,
      );
      stopAll();
      process.exit(typeof code === 'number' && code !== 0 ? code : 1);
    });
  });
}

process.on('SIGINT', () => {
  stopAll();
  process.exit(130);
});
await Promise.all([...CHECKS.map(run), run(BUILD).then(() => run(E2E))]);
console.log(`\nAll test steps passed (${seconds(started)}).`);

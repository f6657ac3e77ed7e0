#!/usr/bin/env node
/**
 * `npm test`: every test, in order — typecheck, vitest (unit + integration, including the layer test), then a
 * build and the Playwright e2e tests in Chromium against the web shape. Stops at the first failing step.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const steps = [
  ['typecheck', [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit']],
  ['vitest', [bin('vitest', 'vitest.mjs'), 'run']],
  ['build', [bin('electron-vite', 'bin/electron-vite.js'), 'build', '--logLevel', 'error']],
  ['e2e', [bin('@playwright/test', 'cli.js'), 'test']],
];

for (const [name, args] of steps) {
  console.log(`\n== ${name} ==`);
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
  if (result.status !== 0) {
    console.error(`\n${name} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}
console.log('\nAll test steps passed.');

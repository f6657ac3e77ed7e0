#!/usr/bin/env node
/**
 * `npm run dist`: the installers for this platform (docs/desktop.md "Installers"): Linux AppImage and deb, macOS dmg,
 * Windows NSIS, in `dist/`. Needs the internet (Electron's binary, better-sqlite3 for Electron's ABI, and on Linux
 * the AppImage and deb tools) unless they were downloaded before: it looks first (scripts/dist-preflight.mjs), and
 * when one must be downloaded and GitHub cannot be reached it stops in one line before building anything. A step
 * that still fails says why in one line.
 * `npm run dist -- --arch=arm64` builds for another architecture of the same platform.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { canReach, distDownloads, preflightLine } from './dist-preflight.mjs';
import { electronSqliteBinding, oneLineReason } from './electron-native.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const archArg = process.argv.slice(2).find((a) => a.startsWith('--arch='));
const arch = archArg ? archArg.slice('--arch='.length) : process.arch;
const platformFlag = { darwin: '--mac', win32: '--win', linux: '--linux' }[process.platform];
if (!platformFlag) {
  console.error(`No installer target for ${process.platform}.`);
  process.exit(1);
}

/** Runs one step with its output shown as it comes; a failure ends with the one line that says why. */
async function step(name, command, args) {
  console.log(`\n== ${name} ==`);
  const child = spawn(command, args, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk) => (process.stdout.write(chunk), (stdout += chunk)));
  child.stderr.on('data', (chunk) => (process.stderr.write(chunk), (stderr += chunk)));
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
  if (code !== 0) {
    console.error(`\n${name} failed (exit ${code ?? signal}): ${oneLineReason({ stderr, stdout })}`);
    process.exit(code ?? 1);
  }
}

const needs = distDownloads({ root, arch });
const stop = preflightLine(needs, needs.length === 0 || (await canReach('github.com')));
if (stop) {
  console.error(stop);
  process.exit(1);
}

await step('build', process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build']);
console.log('\n== better-sqlite3 for Electron ==');
try {
  console.log(electronSqliteBinding(root, { platform: process.platform, arch }));
} catch (error) {
  console.error(`better-sqlite3 could not be had for Electron (${error.message}); installers need it.`);
  process.exit(1);
}
await step('electron-builder', process.execPath, [
  join(root, 'node_modules/electron-builder/cli.js'),
  '--config',
  'electron-builder.config.mjs',
  platformFlag,
  `--${arch}`,
  '--publish',
  'never',
]);
console.log(`\nInstallers are in ${join(root, 'dist')}.`);

#!/usr/bin/env node
/**
 * `npm run dist`: the installers for this platform (docs/desktop.md "Installers"): Linux AppImage and deb, macOS dmg,
 * Windows NSIS, in `dist/`. Needs the internet (Electron's binary, better-sqlite3 for Electron's ABI, and on Linux
 * the AppImage and deb tools); offline it stops at the first step that cannot be done and says why in one line.
 * `npm run dist -- --arch=arm64` builds for another architecture of the same platform.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { electronSqliteBinding } from './electron-native.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const archArg = process.argv.slice(2).find((a) => a.startsWith('--arch='));
const arch = archArg ? archArg.slice('--arch='.length) : process.arch;
const platformFlag = { darwin: '--mac', win32: '--win', linux: '--linux' }[process.platform];
if (!platformFlag) {
  console.error(`No installer target for ${process.platform}.`);
  process.exit(1);
}

function step(name, command, args) {
  console.log(`\n== ${name} ==`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${name} failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

step('build', process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build']);
console.log('\n== better-sqlite3 for Electron ==');
try {
  console.log(electronSqliteBinding(root, { platform: process.platform, arch }));
} catch (error) {
  console.error(`better-sqlite3 could not be had for Electron (${error.message}); installers need it.`);
  process.exit(1);
}
step('electron-builder', process.execPath, [
  join(root, 'node_modules/electron-builder/cli.js'),
  '--config', 'electron-builder.config.mjs',
  platformFlag,
  `--${arch}`,
  '--publish', 'never',
]);
console.log(`\nInstallers are in ${join(root, 'dist')}.`);

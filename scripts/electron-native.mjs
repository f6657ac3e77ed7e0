/**
 * better-sqlite3 for Electron's ABI, kept apart from the Node build in node_modules (docs/architecture.md "Shapes and
 * processes"): a copy of the package is rebuilt against Electron's headers under `.skald-native/`, and the desktop core
 * loads it through better-sqlite3's `nativeBinding` option. `npm test` (Node) never sees it; `npm start` never breaks
 * the tests.
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';

export function electronSqliteBinding(root) {
  const version = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;
  const dir = join(root, '.skald-native', `electron-${version}`, 'better-sqlite3');
  const binding = join(dir, 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(binding)) return binding;
  mkdirSync(dir, { recursive: true });
  cpSync(join(root, 'node_modules/better-sqlite3'), dir, { recursive: true, filter: (src) => !src.includes('/build/') });
  // node-gyp ships inside npm; use that copy rather than adding a dependency.
  const nodeGyp = join(dirname(process.execPath), '../lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js');
  execFileSync(
    process.execPath,
    [nodeGyp, 'rebuild', `--target=${version}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers'],
    { cwd: dir, stdio: 'pipe' },
  );
  return binding;
}

/**
 * What `npm run dist` must download, looked at before anything is built (docs/desktop.md "Installers"): Electron's
 * binary (unless in Electron's download cache), better-sqlite3 for Electron's ABI (unless built before, in
 * `.skald-native/`), and electron-builder's packaging tools (Linux: AppImage and fpm for the deb; Windows: NSIS)
 * unless in its cache. When something must be downloaded and GitHub, where all of them come from, cannot be reached,
 * the run stops in one line naming them, instead of after a full build.
 * Limits: a mirror (ELECTRON_MIRROR, ELECTRON_BUILDER_BINARIES_MIRROR) is not probed; GitHub is.
 */
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { bindingIn, electronVersion, nativeDir } from './electron-native.mjs';

/** Where a tool keeps its downloads on each platform (its own variable first). */
function cacheRoot({ platform, env, home }, variable, name) {
  if (env[variable]) return env[variable];
  if (platform === 'darwin') return join(home, 'Library', 'Caches', name);
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), name, 'Cache');
  return join(env.XDG_CACHE_HOME ?? join(home, '.cache'), name);
}

/** Whether `file` is in `dir` or one folder below it (@electron/get keeps each download in a folder of its own). */
function holds(dir, file) {
  if (existsSync(join(dir, file))) return true;
  try {
    return readdirSync(dir, { withFileTypes: true }).some(
      (e) => e.isDirectory() && existsSync(join(dir, e.name, file)),
    );
  } catch {
    return false;
  }
}

/** electron-builder's tools for the installers of a platform, by the folder each unpacks into in its cache. */
const BUILDER_TOOLS = { linux: ['appimage', 'fpm'], win32: ['nsis', 'nsis-resources'], darwin: [] };

/**
 * The downloads a dist for `platform`/`arch` still needs: `[{ what }]`, empty when everything is at hand.
 * `root` is the repository; `home` and `env` say where the caches are.
 */
export function distDownloads({
  root,
  platform = process.platform,
  arch = process.arch,
  env = process.env,
  home = homedir(),
  version = electronVersion(root),
}) {
  const where = { platform, env, home };
  const needs = [];
  const electronCache = cacheRoot(where, 'electron_config_cache', 'electron');
  if (!holds(electronCache, `electron-v${version}-${platform}-${arch}.zip`))
    needs.push({ what: `Electron ${version}'s binary` });
  if (!existsSync(bindingIn(nativeDir(root, { version, platform, arch }))))
    needs.push({ what: "better-sqlite3 built for Electron's ABI" });
  const builderCache = cacheRoot(where, 'ELECTRON_BUILDER_CACHE', 'electron-builder');
  const tools = (BUILDER_TOOLS[platform] ?? []).filter((tool) => !existsSync(join(builderCache, tool)));
  if (tools.length) needs.push({ what: `electron-builder's ${tools.join(' and ')} tools` });
  return needs;
}

/** Whether a TCP connection to `host`:443 opens within `timeoutMs` (DNS included). */
export function canReach(host = 'github.com', timeoutMs = 5_000) {
  return new Promise((resolve) => {
    const socket = connect({ host, port: 443, timeout: timeoutMs });
    const done = (ok) => (socket.destroy(), resolve(ok));
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/** The one line that stops the run, or null when it can go on. */
export function preflightLine(needs, reachable) {
  if (needs.length === 0 || reachable) return null;
  return (
    `npm run dist stopped before building: it must download ${needs.map((n) => n.what).join(', ')}, and github.com ` +
    'cannot be reached (offline?). Run it where GitHub can be reached; what it downloads is cached for the next run.'
  );
}

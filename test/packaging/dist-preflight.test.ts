/**
 * `npm run dist` looks before it builds (scripts/dist-preflight.mjs, docs/desktop.md "Installers"): what is not in the
 * caches must be downloaded, from GitHub; offline that is said in one line and the run stops before building. The
 * caches are real folders in a temp home; the stop is the real script's, on this machine (where GitHub cannot be
 * reached, or a GitHub host the test points at the discard port).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bindingIn, nativeDir } from '../../scripts/electron-native.mjs';
import { canReach, distDownloads, preflightLine } from '../../scripts/dist-preflight.mjs';
import { cleanupTempDirs, tempDir } from '../helpers/temp';

afterEach(cleanupTempDirs);
const ROOT = join(import.meta.dirname, '..', '..');
const version = '45.5.0';

describe('dist preflight', () => {
  it('needs what no cache holds, and nothing once every cache does', () => {
    const home = tempDir();
    const root = tempDir();
    const at = { root, home, env: {}, platform: 'linux' as const, arch: 'x64', version };
    expect(distDownloads(at).map((n) => n.what)).toEqual([
      "Electron 45.5.0's binary",
      "better-sqlite3 built for Electron's ABI",
      "electron-builder's appimage and fpm tools",
    ]);
    // Electron's zip in a download folder of @electron/get's cache, the Electron build of better-sqlite3, the tools.
    mkdirSync(join(home, '.cache', 'electron', 'a1b2c3'), { recursive: true });
    writeFileSync(join(home, '.cache', 'electron', 'a1b2c3', `electron-v${version}-linux-x64.zip`), '');
    const binding = bindingIn(nativeDir(root, { version, platform: 'linux', arch: 'x64' }));
    mkdirSync(join(binding, '..'), { recursive: true });
    writeFileSync(binding, '');
    mkdirSync(join(home, '.cache', 'electron-builder', 'appimage'), { recursive: true });
    expect(distDownloads(at).map((n) => n.what)).toEqual(["electron-builder's fpm tools"]);
    mkdirSync(join(home, '.cache', 'electron-builder', 'fpm'), { recursive: true });
    expect(distDownloads(at)).toEqual([]);
    // Another architecture's binary is another download; a cache variable moves the cache.
    expect(distDownloads({ ...at, arch: 'arm64' }).map((n) => n.what)).toContain("Electron 45.5.0's binary");
    expect(distDownloads({ ...at, env: { electron_config_cache: tempDir() } }).map((n) => n.what)).toEqual([
      "Electron 45.5.0's binary",
    ]);
  });

  it('stops in one line only when something must be downloaded and GitHub cannot be reached', async () => {
    const needs = [{ what: "Electron 45.5.0's binary" }];
    expect(preflightLine([], false)).toBeNull();
    expect(preflightLine(needs, true)).toBeNull();
    const line = preflightLine(needs, false)!;
    expect(line).not.toContain('\n');
    expect(line).toMatch(/^npm run dist stopped before building: it must download Electron 45\.5\.0's binary, and/);
    expect(await canReach('127.0.0.1', 2_000)).toBe(false); // nothing listens on 443 here
  });

  it('the real script stops before building on a machine that cannot reach GitHub', async () => {
    if (await canReach('github.com', 3_000)) return; // online: the stop cannot be shown here (CI machines are offline)
    const home = tempDir();
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'dist.mjs')], {
      env: { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toMatch(/^npm run dist stopped before building: it must download Electron/);
    expect(run.stdout).not.toContain('== build ==');
  });
});

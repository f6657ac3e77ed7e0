/**
 * Which better-sqlite3 binary the desktop loads in which runtime (docs/desktop.md "Native modules for two
 * runtimes"), and that the chosen file really opens a database through `nativeBinding`. Here only Node's build
 * exists, so the "packaged" case loads a copy of it from a packaged layout: what is proven is the path and the
 * loading, not Electron's ABI.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createElectronStandin } from '../../../test/electron-standin/index';
import { cleanupTempDirs, tempDir } from '../../../test/helpers/temp';
import { openDatabase } from '../core/db/database';
import { startDesktop } from './desktop-app';
import { BINDING_ENV, chooseSqliteBinding, PACKAGED_BINDING } from './native-binding';

afterEach(cleanupTempDirs);

const nodeBuild = join(
  dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node',
);

describe('chooseSqliteBinding', () => {
  it('plain Node (tests, the web shape, the stand-in) uses the build in node_modules', () => {
    expect(chooseSqliteBinding({ isPackaged: false, env: { [BINDING_ENV]: '/elsewhere.node' } })).toEqual({
      ok: true,
      binding: undefined,
      source: 'node_modules',
    });
  });

  it('a packaged app loads resources/native/better_sqlite3.node, never the env or node_modules', () => {
    const resources = tempDir();
    mkdirSync(join(resources, 'native'));
    copyFileSync(nodeBuild, join(resources, ...PACKAGED_BINDING));
    const choice = chooseSqliteBinding({
      electronVersion: '45.5.0',
      isPackaged: true,
      resourcesPath: resources,
      env: { [BINDING_ENV]: nodeBuild },
    });
    expect(choice).toEqual({ ok: true, binding: join(resources, 'native', 'better_sqlite3.node'), source: 'packaged' });
    // The file it names opens a real database through better-sqlite3's nativeBinding option.
    const db = openDatabase({
      file: join(tempDir(), 'skald.db'),
      nativeBinding: (choice as { binding: string }).binding,
    });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('a packaged app without the binary is refused in one line that says how to fix it', () => {
    const choice = chooseSqliteBinding({
      electronVersion: '45.5.0',
      isPackaged: true,
      resourcesPath: tempDir(),
      env: {},
    });
    expect(choice.ok).toBe(false);
    expect((choice as { reason: string }).reason).toMatch(/no better-sqlite3 for Electron 45\.5\.0.*npm run dist/);
    expect((choice as { reason: string }).reason).not.toContain('\n');
  });

  it('a development run takes the path npm start built, and refuses a missing or absent one', () => {
    expect(
      chooseSqliteBinding({ electronVersion: '45.5.0', isPackaged: false, env: { [BINDING_ENV]: nodeBuild } }),
    ).toEqual({ ok: true, binding: nodeBuild, source: 'development' });
    const missing = chooseSqliteBinding({
      electronVersion: '45.5.0',
      isPackaged: false,
      env: { [BINDING_ENV]: '/nope/better_sqlite3.node' },
    });
    expect(missing).toMatchObject({
      ok: false,
      reason: expect.stringContaining('/nope/better_sqlite3.node, which does not exist'),
    });
    const absent = chooseSqliteBinding({ electronVersion: '45.5.0', isPackaged: false, env: {} });
    expect(absent).toMatchObject({ ok: false, reason: expect.stringContaining('npm start') });
  });
});

describe('the desktop app', () => {
  it('in Electron without a binding for its ABI, it stops before opening anything and says why', async () => {
    const userData = tempDir();
    const standin = createElectronStandin({ userData });
    await expect(
      startDesktop({
        electron: standin.electron,
        argv: [],
        env: {},
        rendererDir: userData,
        preloadPath: '/x',
        iconPath: '/x',
        agentsDir: '/x',
        runtime: { electronVersion: '45.5.0' },
      }),
    ).rejects.toThrow(/cannot open its database: better-sqlite3 for Electron 45\.5\.0 was not given/);
    expect(standin.windows).toHaveLength(0);
    expect(standin.handlerCount()).toBe(0);
  });
});

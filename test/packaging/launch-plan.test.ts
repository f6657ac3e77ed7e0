/**
 * `npm start`'s choice (scripts/launch-plan.mjs) and the Electron build of better-sqlite3 kept apart
 * (scripts/electron-native.mjs; docs/desktop.md "Native modules for two runtimes"). The build tools are replaced by
 * a stand-in `run` that does what prebuild-install or node-gyp would (or fails as they do offline); the folders,
 * the order of the attempts and the reasons are the real code's.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bindingIn, electronSqliteBinding, nativeDir, oneLineReason } from '../../scripts/electron-native.mjs';
import { planLaunch } from '../../scripts/launch-plan.mjs';
import { cleanupTempDirs, tempDir } from '../helpers/temp';

afterEach(cleanupTempDirs);

describe('planLaunch', () => {
  const binding = () => '/native/better_sqlite3.node';
  it('opens the desktop app when Electron and its better-sqlite3 are both there', () => {
    expect(
      planLaunch({ forceWeb: false, findElectron: () => ({ path: '/bin/electron' }), buildBinding: binding }),
    ).toEqual({ shape: 'desktop', electronPath: '/bin/electron', binding: '/native/better_sqlite3.node' });
  });

  it('falls back to the web shape with a one-line reason: forced, no binary, no native build', () => {
    expect(
      planLaunch({ forceWeb: true, findElectron: () => ({ path: '/bin/electron' }), buildBinding: binding }),
    ).toEqual({ shape: 'web', reason: 'SKALD_FORCE_WEB is set' });
    expect(
      planLaunch({
        forceWeb: false,
        findElectron: () => ({ reason: 'the binary could not be downloaded: getaddrinfo ENOTFOUND github.com' }),
        buildBinding: binding,
      }),
    ).toEqual({ shape: 'web', reason: 'the binary could not be downloaded: getaddrinfo ENOTFOUND github.com' });
    const failed = planLaunch({
      forceWeb: false,
      findElectron: () => ({ path: '/bin/electron' }),
      buildBinding: () => {
        throw new Error('prebuild-install: ENOTFOUND github.com;\nnode-gyp: no network');
      },
    });
    expect(failed).toEqual({
      shape: 'web',
      reason:
        'better-sqlite3 could not be had for Electron (prebuild-install: ENOTFOUND github.com; node-gyp: no network)',
    });
  });

  it('never builds the native module when the web shape is forced or Electron is missing', () => {
    let builds = 0;
    planLaunch({ forceWeb: true, findElectron: () => ({ path: '/e' }), buildBinding: () => String(++builds) });
    planLaunch({ forceWeb: false, findElectron: () => ({ reason: 'none' }), buildBinding: () => String(++builds) });
    expect(builds).toBe(0);
  });
});

/** A project root whose node_modules holds an electron package.json and a better-sqlite3 with a Node build. */
function fakeRoot(): string {
  const root = tempDir();
  mkdirSync(join(root, 'node_modules/electron'), { recursive: true });
  writeFileSync(join(root, 'node_modules/electron/package.json'), JSON.stringify({ version: '45.5.0' }));
  mkdirSync(join(root, 'node_modules/better-sqlite3/build/Release'), { recursive: true });
  mkdirSync(join(root, 'node_modules/better-sqlite3/lib'), { recursive: true });
  writeFileSync(join(root, 'node_modules/better-sqlite3/package.json'), '{"name":"better-sqlite3"}');
  writeFileSync(join(root, 'node_modules/better-sqlite3/lib/index.js'), '');
  writeFileSync(join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), 'NODE ABI');
  mkdirSync(join(root, 'node_modules/node-gyp/bin'), { recursive: true });
  writeFileSync(join(root, 'node_modules/node-gyp/bin/node-gyp.js'), '');
  return root;
}

type Run = (cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) => unknown;

describe('electronSqliteBinding', () => {
  it('puts the prebuilt Electron binary in its own folder per version, platform and arch; the Node build is untouched', () => {
    const root = fakeRoot();
    const calls: string[][] = [];
    const run: Run = (_cmd, args, { cwd }) => {
      calls.push(args.slice(1));
      mkdirSync(join(cwd, 'build/Release'), { recursive: true });
      writeFileSync(join(cwd, 'build/Release/better_sqlite3.node'), 'ELECTRON ABI');
    };
    const binding = electronSqliteBinding(root, { platform: 'win32', arch: 'arm64' }, run);
    expect(binding).toBe(bindingIn(nativeDir(root, { version: '45.5.0', platform: 'win32', arch: 'arm64' })));
    expect(binding).toContain(join('.skald-native', 'electron-45.5.0-win32-arm64', 'better-sqlite3'));
    expect(readFileSync(binding, 'utf8')).toBe('ELECTRON ABI');
    expect(calls).toEqual([['--runtime=electron', '--target=45.5.0', '--arch=arm64', '--platform=win32']]);
    expect(readFileSync(join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'), 'utf8')).toBe(
      'NODE ABI',
    );
    // Built once: the second call finds it and runs nothing.
    expect(electronSqliteBinding(root, { platform: 'win32', arch: 'arm64' }, () => calls.push(['again']))).toBe(
      binding,
    );
    expect(calls).toHaveLength(1);
  });

  it('the copy never carries the Node build over', () => {
    const root = fakeRoot();
    const seen: boolean[] = [];
    const run: Run = (_cmd, _args, { cwd }) =>
      void seen.push(existsSync(join(cwd, 'build')), existsSync(join(cwd, 'lib/index.js')));
    expect(() => electronSqliteBinding(root, {}, run)).toThrow();
    expect(seen.slice(0, 2)).toEqual([false, true]);
  });

  it('compiles with node-gyp for this platform when no prebuilt binary can be had', () => {
    const root = fakeRoot();
    const tools: string[] = [];
    const run: Run = (_cmd, args, { cwd }) => {
      tools.push(args[0]!.includes('node-gyp') ? 'node-gyp' : 'prebuild-install');
      if (!args[0]!.includes('node-gyp'))
        throw Object.assign(new Error('Command failed'), {
          stderr: 'prebuild-install warn install getaddrinfo ENOTFOUND github.com',
        });
      mkdirSync(join(cwd, 'build/Release'), { recursive: true });
      writeFileSync(join(cwd, 'build/Release/better_sqlite3.node'), 'COMPILED');
    };
    expect(readFileSync(electronSqliteBinding(root, {}, run), 'utf8')).toBe('COMPILED');
    expect(tools).toEqual(['prebuild-install', 'node-gyp']);
  });

  it('offline: fails with one line naming both attempts, and leaves no folder behind', () => {
    const root = fakeRoot();
    const run: Run = (_cmd, args) => {
      throw Object.assign(new Error('Command failed'), {
        stderr: args[0]!.includes('node-gyp')
          ? 'gyp http GET https://electronjs.org/headers/v45.5.0/node-v45.5.0-headers.tar.gz\ngyp WARN install got an error\ngyp ERR! stack is related to network connectivity. In most cases'
          : 'prebuild-install warn install getaddrinfo ENOTFOUND github.com',
      });
    };
    let message = '';
    try {
      electronSqliteBinding(root, {}, run);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'prebuild-install: prebuild-install warn install getaddrinfo ENOTFOUND github.com; node-gyp: no network: could not download https://electronjs.org/headers/v45.5.0/node-v45.5.0-headers.tar.gz',
    );
    expect(existsSync(join(root, '.skald-native', 'electron-45.5.0-' + process.platform + '-' + process.arch))).toBe(
      false,
    );
  });

  it("builds against Electron's headers even where npm config sets nodedir to this Node's", () => {
    const root = fakeRoot();
    const envs: (string | undefined)[] = [];
    const saved = process.env.npm_config_nodedir;
    process.env.npm_config_nodedir = '/usr';
    try {
      expect(() =>
        electronSqliteBinding(root, {}, (_c: string, _a: string[], opts: { env: NodeJS.ProcessEnv }) => {
          envs.push(opts.env.npm_config_nodedir, opts.env.npm_config_runtime);
          throw new Error('offline');
        }),
      ).toThrow();
    } finally {
      if (saved === undefined) delete process.env.npm_config_nodedir;
      else process.env.npm_config_nodedir = saved;
    }
    expect(envs).toEqual([undefined, 'electron', undefined, 'electron']);
  });

  it("refuses a binary built for this Node under Electron's name, and removes it", () => {
    const root = fakeRoot();
    const nodeBuild = join(
      dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
      'build',
      'Release',
      'better_sqlite3.node',
    );
    const run: Run = (_cmd, args, { cwd }) => {
      if (!args[0]!.includes('node-gyp')) throw new Error('offline');
      mkdirSync(join(cwd, 'build/Release'), { recursive: true });
      copyFileSync(nodeBuild, join(cwd, 'build/Release/better_sqlite3.node'));
    };
    expect(() => electronSqliteBinding(root, {}, run)).toThrow(
      `the binary was built for this Node (ABI ${process.versions.modules}), not for Electron 45.5.0`,
    );
    expect(existsSync(join(root, '.skald-native', `electron-45.5.0-${process.platform}-${process.arch}`))).toBe(false);
  });

  it('never tries to compile for another platform', () => {
    const root = fakeRoot();
    const tools: string[] = [];
    const other = process.platform === 'win32' ? 'linux' : 'win32';
    expect(() =>
      electronSqliteBinding(root, { platform: other }, (_c: string, args: string[]) => {
        tools.push(args[0]!);
        throw new Error('offline');
      }),
    ).toThrow(`node-gyp: cannot compile for ${other} on ${process.platform}`);
    expect(tools).toHaveLength(1);
  });

  it('oneLineReason picks the line that says why', () => {
    expect(oneLineReason({ stderr: 'a\nb\nnpm ERR! code E404\n' })).toBe('npm ERR! code E404');
    expect(oneLineReason(new Error('plain'))).toBe('plain');
  });
});

/**
 * The packaging config run for real (docs/desktop.md "Installers"): electron-builder packs a small project laid out
 * like ours (built files, agents, a grammar package, better-sqlite3, a renderer-only package, a native module) with
 * `electron-builder.config.mjs` as it is, into Linux's unpacked `dir` target, and the test reads the result: what
 * is in the asar, what is unpacked, where better-sqlite3 for Electron lands, and the fuses the afterPack hook
 * flipped. The Electron binary is a stand-in file that carries Electron's fuse wire (sentinel, version, eight fuses),
 * so this proves our configuration and hook, not a real Electron binary's reading of them (docs/security-checks.md,
 * E9). The installers' own tools (AppImage, deb, dmg, NSIS) need downloads and are not run here.
 */
import { listPackage } from '@electron/asar';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { Arch, build, Platform } from 'electron-builder';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config, { FUSES } from '../../electron-builder.config.mjs';
import { cleanupTempDirs, tempDir } from '../helpers/temp';

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const electronVersion = JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')).version as string;

function put(root: string, rel: string, content: string | Buffer = ''): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

function pkg(root: string, name: string, extra: Record<string, unknown> = {}): void {
  put(root, `node_modules/${name}/package.json`, JSON.stringify({ name, version: '1.0.0', ...extra }));
}

/** A project laid out like ours, small enough to pack in seconds. */
function makeProject(): string {
  const root = tempDir('skald-pack-');
  put(
    root,
    'package.json',
    JSON.stringify({
      name: 'skald-desktop',
      version: '0.1.0',
      description: 'test',
      type: 'module',
      main: 'out/main/index.js',
      dependencies: {
        'better-sqlite3': '1.0.0',
        'tree-sitter-python': '1.0.0',
        '@tree-sitter-grammars/tree-sitter-lua': '1.0.0',
        'monaco-editor': '1.0.0',
        zod: '1.0.0',
        'native-thing': '1.0.0',
      },
    }),
  );
  for (const file of [
    'out/main/index.js',
    'out/main/outline-worker.js',
    'out/main/grep-worker.js',
    'out/main/dispatch-abc.js',
    'out/preload/index.cjs',
    'out/renderer/index.html',
    'out/renderer/assets/pdf.worker-x.mjs',
    'out/renderer/assets/editor.worker-x.js',
    'agents/main/AGENT.md',
    'agents/main/meta.json',
  ])
    put(root, file, '// ' + file);
  put(root, 'out/main/index.js.map', '{}');
  put(root, 'resources/icon.png', readFileSync('resources/icon.png'));
  pkg(root, 'better-sqlite3', { main: 'lib/index.js' });
  for (const file of [
    'lib/index.js',
    'build/Release/better_sqlite3.node',
    'deps/sqlite3/sqlite3.c',
    'src/better_sqlite3.cpp',
    'binding.gyp',
  ])
    put(root, `node_modules/better-sqlite3/${file}`, 'x');
  pkg(root, 'tree-sitter-python');
  for (const file of [
    'tree-sitter-python.wasm',
    'LICENSE',
    'src/parser.c',
    'bindings/node/index.js',
    'prebuilds/linux-x64/tree-sitter-python.node',
    'queries/highlights.scm',
    'grammar.js',
  ])
    put(root, `node_modules/tree-sitter-python/${file}`, 'x');
  pkg(root, '@tree-sitter-grammars/tree-sitter-lua');
  for (const file of ['tree-sitter-lua.wasm', 'src/parser.c', 'bindings/node/binding.cc'])
    put(root, `node_modules/@tree-sitter-grammars/tree-sitter-lua/${file}`, 'x');
  pkg(root, 'monaco-editor');
  put(root, 'node_modules/monaco-editor/esm/editor.js', 'x');
  pkg(root, 'zod', { main: 'index.js' });
  put(root, 'node_modules/zod/index.js', 'x');
  pkg(root, 'native-thing', { main: 'index.js' });
  put(root, 'node_modules/native-thing/index.js', 'x');
  put(root, 'node_modules/native-thing/build/Release/thing.node', 'x');
  // What scripts/electron-native.mjs leaves for this Electron on Linux x64.
  put(
    root,
    `.skald-native/electron-${electronVersion}-linux-x64/better-sqlite3/build/Release/better_sqlite3.node`,
    'ELECTRON ABI',
  );
  return root;
}

/** A file standing in for the Electron binary: Electron's fuse wire with every fuse at its default. */
function fakeElectronDist(): string {
  const dir = tempDir('skald-electron-dist-');
  const wire = Buffer.from([1, 8, ...'11110001'].map((c) => (typeof c === 'string' ? c.charCodeAt(0) : c)));
  writeFileSync(
    join(dir, 'electron'),
    Buffer.concat([Buffer.from('#!/bin/sh\n'), Buffer.alloc(32), Buffer.from(SENTINEL), wire, Buffer.alloc(32)]),
    { mode: 0o755 },
  );
  mkdirSync(join(dir, 'resources'));
  return dir;
}

let appDir = '';
let asarFiles: string[] = [];

beforeAll(async () => {
  const project = makeProject();
  const output = tempDir('skald-pack-out-');
  await build({
    projectDir: project,
    targets: Platform.LINUX.createTarget(['dir'], Arch.x64),
    config: { ...config, electronDist: fakeElectronDist(), directories: { ...config.directories, output } },
    publish: 'never',
  });
  appDir = join(output, 'linux-unpacked');
  asarFiles = listPackage(join(appDir, 'resources', 'app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'));
}, 120_000);

afterAll(cleanupTempDirs);

describe('a packed app', () => {
  it('carries the built app, the agents, the window icon and each grammar wasm inside the asar', () => {
    for (const file of [
      '/out/main/index.js',
      '/out/main/outline-worker.js',
      '/out/main/grep-worker.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/out/renderer/assets/pdf.worker-x.mjs',
      '/out/renderer/assets/editor.worker-x.js',
      '/agents/main/AGENT.md',
      '/resources/icon.png',
      '/node_modules/tree-sitter-python/tree-sitter-python.wasm',
      '/node_modules/tree-sitter-python/package.json',
      '/node_modules/@tree-sitter-grammars/tree-sitter-lua/tree-sitter-lua.wasm',
      '/node_modules/better-sqlite3/lib/index.js',
      '/node_modules/zod/index.js',
    ]) {
      expect(asarFiles, file).toContain(file);
    }
    // Read through Electron's asar-aware fs, so nothing of ours is unpacked (asar integrity covers all of it).
    expect(existsSync(join(appDir, 'resources', 'app.asar.unpacked', 'out'))).toBe(false);
    expect(existsSync(join(appDir, 'resources', 'app.asar.unpacked', 'agents'))).toBe(false);
  });

  it("leaves out source maps, renderer-only packages, better-sqlite3's Node build and sources, grammar sources and bindings", () => {
    const unwanted = asarFiles.filter((f) =>
      /\.map$|\/monaco-editor|better-sqlite3\/(build|deps|src|binding\.gyp)|tree-sitter-(python|lua)\/(src|bindings|prebuilds|queries|grammar\.js)/.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);
  });

  it('unpacks native modules, and puts better-sqlite3 for Electron in resources/native', () => {
    expect(
      existsSync(
        join(
          appDir,
          'resources',
          'app.asar.unpacked',
          'node_modules',
          'native-thing',
          'build',
          'Release',
          'thing.node',
        ),
      ),
    ).toBe(true);
    expect(readFileSync(join(appDir, 'resources', 'native', 'better_sqlite3.node'), 'utf8')).toBe('ELECTRON ABI');
  });

  it('the afterPack hook flipped the fuses: no RunAsNode, NODE_OPTIONS or inspect; asar integrity and asar-only on; no file:// privileges', async () => {
    const wire = await getCurrentFuseWire(join(appDir, 'skald'));
    const state = (fuse: FuseV1Options) => String.fromCharCode(wire[fuse] as unknown as number);
    expect(state(FuseV1Options.RunAsNode)).toBe('0');
    expect(state(FuseV1Options.EnableNodeOptionsEnvironmentVariable)).toBe('0');
    expect(state(FuseV1Options.EnableNodeCliInspectArguments)).toBe('0');
    expect(state(FuseV1Options.EnableEmbeddedAsarIntegrityValidation)).toBe('1');
    expect(state(FuseV1Options.OnlyLoadAppFromAsar)).toBe('1');
    expect(state(FuseV1Options.GrantFileProtocolExtraPrivileges)).toBe('0');
    expect(state(FuseV1Options.EnableCookieEncryption)).toBe('1');
    // Every fuse in the wire was set by our list, none left to the default.
    for (const key of Object.keys(FUSES).filter((k) => k !== 'version'))
      expect(['0', '1']).toContain(state(Number(key) as FuseV1Options));
  });
});

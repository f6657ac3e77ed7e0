/**
 * The installers' configuration, read as data (docs/desktop.md "Installers"): targets and identity, the icons in
 * `resources/`, the one place better-sqlite3 for Electron comes from (the same path `scripts/electron-native.mjs`
 * builds and `src/main/desktop/native-binding.ts` loads), no rebuild of node_modules, and that the packages left out
 * as renderer-only are never imported by the main process or the preload. `pack.test.ts` runs electron-builder.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import config, { FUSES, NATIVE_BINDING_SOURCE, RENDERER_ONLY_PACKAGES } from '../../electron-builder.config.mjs';
import { bindingIn, electronVersion, nativeDir } from '../../scripts/electron-native.mjs';
import { MAIN_NEVER_LOADS, RENDERER_ROOTS } from '../../scripts/packaged-modules.mjs';
import { ICNS_TYPES, ICO_SIZES, ICON_SIZES } from '../../scripts/make-icons';
import { PACKAGED_BINDING } from '../../src/main/desktop/native-binding';
import { GRAMMAR_WASM } from '../../src/main/core/treesitter/grammars';

const root = process.cwd();

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$|test-kit/.test(name) ? [path] : [];
  });
}

/** The packages a set of source files import (bare specifiers, scope kept). */
function importedPackages(files: string[]): Set<string> {
  const found = new Set<string>();
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(
      /(?:from\s+|import\(\s*|require(?:\.resolve)?\(\s*)['"]([^'"./][^'"]*)['"]/g,
    )) {
      const spec = m[1]!;
      if (spec.startsWith('node:')) continue;
      const parts = spec.split('/');
      found.add(spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
    }
  }
  return found;
}

describe('targets and identity', () => {
  it('Linux AppImage and deb, macOS dmg, Windows NSIS, under one app id and name', () => {
    expect(config.appId).toBe('app.skald.desktop');
    expect(config.productName).toBe('Skald');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.electronVersion).toBe(electronVersion(root));
  });

  it('node_modules is never rebuilt for Electron (that would swap out the Node build the tests use)', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.nodeGypRebuild).toBe(false);
    expect(config.buildDependenciesFromSource).toBe(false);
  });

  it('only native modules leave the asar; better-sqlite3 for Electron comes from where electron-native.mjs builds it', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(['**/*.node']);
    expect(config.extraResources).toEqual([{ from: NATIVE_BINDING_SOURCE, to: PACKAGED_BINDING.join('/') }]);
    for (const platform of ['linux', 'darwin', 'win32']) {
      for (const arch of ['x64', 'arm64']) {
        const expanded = NATIVE_BINDING_SOURCE.replace('${platform}', platform).replace('${arch}', arch);
        const built = relative(
          root,
          bindingIn(nativeDir(root, { version: electronVersion(root), platform, arch })),
        ).replaceAll('\\', '/');
        expect(expanded).toBe(built);
      }
    }
  });

  it('the afterPack hook sets every fuse of the wire, with the safe value', () => {
    expect(typeof config.afterPack).toBe('function');
    const values = Object.entries(FUSES)
      .filter(([k]) => k !== 'version')
      .map(([, v]) => v);
    expect(values).toEqual([false, true, false, false, true, true, false, false]);
  });
});

describe('icons', () => {
  it('every size is rendered from the SVG, at its own size', () => {
    expect(existsSync(join(root, 'resources/icon.svg'))).toBe(true);
    for (const size of ICON_SIZES)
      expect(pngSize(readFileSync(join(root, 'resources/icons', `${size}x${size}.png`)))).toEqual({
        width: size,
        height: size,
      });
    expect(pngSize(readFileSync(join(root, 'resources/icon.png')))).toEqual({ width: 512, height: 512 });
    expect(config.linux.icon).toBe('resources/icons');
  });

  it('the Windows .ico holds PNG entries from 16 to 256', () => {
    const ico = readFileSync(join(root, config.win.icon));
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    const sizes = Array.from({ length: count }, (_, i) => {
      const at = 6 + 16 * i;
      const png = ico.subarray(ico.readUInt32LE(at + 12), ico.readUInt32LE(at + 12) + ico.readUInt32LE(at + 8));
      const declared = ico.readUInt8(at) || 256;
      expect(pngSize(png)).toEqual({ width: declared, height: declared });
      return declared;
    });
    expect(sizes).toEqual([...ICO_SIZES]);
  });

  it('the macOS .icns holds a PNG of the right size under each entry type', () => {
    const icns = readFileSync(join(root, config.mac.icon));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const seen: Record<string, number> = {};
    for (let at = 8; at < icns.length; ) {
      const type = icns.subarray(at, at + 4).toString('ascii');
      const length = icns.readUInt32BE(at + 4);
      seen[type] = pngSize(icns.subarray(at + 8, at + length)).width;
      at += length;
    }
    expect(seen).toEqual(ICNS_TYPES);
  });
});

describe('what the packaged app carries', () => {
  const mainSide = importedPackages(
    ['src/main', 'src/shared', 'src/preload'].flatMap((d) => sourceFiles(join(root, d))),
  );

  it('no package the main process or the preload imports is left out as renderer-only', () => {
    expect([...mainSide].filter((name) => RENDERER_ONLY_PACKAGES.includes(name))).toEqual([]);
    for (const wasm of Object.values(GRAMMAR_WASM))
      expect(RENDERER_ONLY_PACKAGES.some((name) => wasm.startsWith(`${name}/`))).toBe(false);
  });

  it('each renderer root is imported by the renderer and by nothing else', () => {
    const renderer = importedPackages(sourceFiles(join(root, 'src/renderer')));
    for (const name of RENDERER_ROOTS) {
      expect(renderer.has(name), name).toBe(true);
      expect(mainSide.has(name), name).toBe(false);
    }
    expect(RENDERER_ONLY_PACKAGES).toEqual(expect.arrayContaining(RENDERER_ROOTS));
  });

  it('pdf.js goes with the main side (read_file reads PDFs), its canvas binary does not', () => {
    expect(mainSide.has('pdfjs-dist')).toBe(true);
    expect(RENDERER_ONLY_PACKAGES).not.toContain('pdfjs-dist');
    expect(RENDERER_ONLY_PACKAGES).toEqual(expect.arrayContaining(MAIN_NEVER_LOADS));
  });
});

/**
 * How the installers are made (docs/desktop.md "Installers"): `npm run dist` (scripts/dist.mjs) builds the app and
 * better-sqlite3 for Electron's ABI, then runs electron-builder with this file for this platform. The choices, each
 * checked by `test/packaging/builder-config.test.ts`:
 * - Targets: Linux AppImage and deb, macOS dmg, Windows NSIS.
 * - What goes in: the built app (`out/`), the sub-agents (`agents/`), the window icon, and the run-time dependencies;
 *   not the packages only the renderer uses (vite bundled them into `out/renderer`), not source maps, not the Node
 *   build of better-sqlite3 nor its C sources, not the grammar packages' C sources (only their `.wasm` is read).
 * - Everything stays inside the asar, where Electron's file system reads it and asar integrity covers it: grammar
 *   `.wasm` files, `agents/`, the worker entries and the renderer (pdf.js worker, Monaco) are all read through
 *   Electron's asar-aware `fs` or our `app://` handler. Only native modules must be real files: `**\/*.node` is
 *   unpacked, and better-sqlite3 for Electron comes as an extra resource, `resources/native/better_sqlite3.node`
 *   (src/main/desktop/native-binding.ts), because the copy in node_modules is Node's.
 * - No rebuild of node_modules (`npmRebuild: false`): rebuilding there would swap Node's better-sqlite3 for Electron's
 *   and break `npm test`. The two builds stay apart (scripts/electron-native.mjs).
 * - Fuses, flipped in `afterPack`, before signing: RunAsNode, NODE_OPTIONS and the inspect arguments off, cookie
 *   encryption, asar integrity and only-load-from-asar on, no extra privileges for file://.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { rendererOnlyPackages } from './scripts/packaged-modules.mjs';

const root = new URL('.', import.meta.url);
const electronVersion = JSON.parse(readFileSync(new URL('node_modules/electron/package.json', root), 'utf8')).version;

/** Packages only the renderer needs (scripts/packaged-modules.mjs): vite bundled them, the packaged app never loads them. */
export const RENDERER_ONLY_PACKAGES = rendererOnlyPackages(fileURLToPath(root));

export const FUSES = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

/** electron-builder's Arch enum value for arm64 (builder-util `Arch`). */
const ARCH_ARM64 = 3;

/** The afterPack hook: flips the fuses of the packed Electron binary (before electron-builder signs it). */
export async function afterPack(context) {
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === ARCH_ARM64;
  await context.packager.addElectronFuses(context, { ...FUSES, resetAdHocDarwinSignature });
}

/** Where scripts/electron-native.mjs leaves better-sqlite3 built for this Electron, per platform and arch. */
export const NATIVE_BINDING_SOURCE = `.skald-native/electron-${electronVersion}-\${platform}-\${arch}/better-sqlite3/build/Release/better_sqlite3.node`;

export default {
  appId: 'app.skald.desktop',
  productName: 'Skald',
  executableName: 'skald',
  copyright: 'Copyright © Skald contributors',
  electronVersion,
  directories: { output: 'dist', buildResources: 'resources' },
  files: [
    'package.json',
    'out/**/*',
    'agents/**/*',
    'resources/icon.png',
    '!**/*.map',
    ...RENDERER_ONLY_PACKAGES.map((name) => `!**/node_modules/${name}{,/**/*}`),
    '!**/node_modules/better-sqlite3/{build,deps,src,binding.gyp}{,/**/*}',
    // A grammar package is read for its .wasm only: its C sources, queries and Node bindings (native) stay out.
    '!**/node_modules/{tree-sitter-*,@tree-sitter-grammars/*}/**/!(*.wasm|package.json|LICENSE)',
  ],
  asar: true,
  asarUnpack: ['**/*.node'],
  extraResources: [{ from: NATIVE_BINDING_SOURCE, to: 'native/better_sqlite3.node' }],
  npmRebuild: false,
  nodeGypRebuild: false,
  buildDependenciesFromSource: false,
  afterPack,
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    icon: 'resources/icons',
    synopsis: 'Chat with an AI agent whose every action you approve',
    maintainer: 'Skald contributors',
  },
  mac: {
    target: ['dmg'],
    category: 'public.app-category.developer-tools',
    icon: 'resources/icon.icns',
    hardenedRuntime: true,
  },
  dmg: { title: 'Skald ${version}' },
  win: { target: ['nsis'], icon: 'resources/icon.ico' },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true, createDesktopShortcut: true },
};

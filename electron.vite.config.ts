/**
 * Builds the three Electron bundles plus the web shape's server entry.
 * - main: the Electron shell (`desktop/main.ts`) and the web server (`web/cli.ts`) share the core.
 * - preload: ONE CommonJS file, because a `sandbox: true` preload cannot load ES modules or other files.
 * - renderer: React; also served as-is by the web shape.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      // zod is bundled (tree-shaken, one file) rather than loaded from node_modules: its package is about a hundred
      // ES modules (every locale included), which cost hundreds of ms of the app's start to resolve and load
      // (docs/architecture.md "Performance targets"). The packages that bring their own zod load it when first used.
      externalizeDeps: { exclude: ['zod'] },
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/desktop/main.ts'),
          web: resolve('src/main/web/cli.ts'),
          // A worker thread's entry (workers/spawn-worker.ts finds it beside the chunk that spawns it).
          'outline-worker': resolve('src/main/core/tools/outline/outline-worker.ts'),
          'grep-worker': resolve('src/main/core/tools/fs/grep-worker.ts'),
        },
        // Chunks beside the entries, not in `chunks/`, so `new URL('./outline-worker.js', import.meta.url)` holds
        // from whichever chunk the pool lands in.
        output: { chunkFileNames: '[name]-[hash].js' },
        // Native and wasm-loading packages stay external: they are resolved from node_modules at run time.
        external: ['electron', 'better-sqlite3', 'web-tree-sitter', 'oxc-parser'],
      },
    },
  },
  preload: {
    build: {
      // Sandboxed preloads cannot `require` packages: bundle zod and the contract into the one file.
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', inlineDynamicImports: true },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [react()],
    // The code highlighter's worker loads its grammars as separate chunks, which needs ES module workers.
    worker: { format: 'es' },
    build: {
      // Minified (electron-vite leaves it off): the chat's first page parses about half the bytes, which is most of
      // the web shape's start (docs/architecture.md "Performance targets").
      minify: true,
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});

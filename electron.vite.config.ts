/**
 * Builds the three Electron bundles plus the web shape's server entry.
 * - main: the Electron shell (`desktop/main.ts`) and the web server (`web/cli.ts`) share the core.
 * - preload: ONE CommonJS file, because a `sandbox: true` preload cannot load ES modules or other files.
 * - renderer: React; also served as-is by the web shape.
 */
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * The page's first module (src/first-screen.ts: the web shape's socket and the first screen's call, no run-time
 * imports) is its own entry chunk of a few hundred bytes, and the HTML runs it by itself, before the app's chunk:
 * it runs as soon as its own small file is in, while the browser still fetches and compiles the app's half a megabyte,
 * so the core answers the first screen meanwhile (docs/ui.md "What the first page loads"). The app's entry still
 * imports it (so it also runs first in `electron-vite dev`): a module runs once, whichever script reaches it first.
 */
function firstScreenScript(): Plugin {
  return {
    name: 'skald:first-screen-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.isEntry && c.name === 'first-screen',
        );
        if (!chunk) throw new Error('the first-screen entry chunk is missing from the renderer build');
        return [
          {
            tag: 'script',
            attrs: { type: 'module', async: true, crossorigin: true, src: `./${chunk.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

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
          'chat-search-worker': resolve('src/main/core/session/chat-search-worker.ts'),
          'pdf-text-worker': resolve('src/main/core/tools/fs/pdf-text-worker.ts'),
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
    plugins: [react(), firstScreenScript()],
    // The code highlighter's worker loads its grammars as separate chunks, which needs ES module workers.
    worker: { format: 'es' },
    build: {
      // Minified (electron-vite leaves it off): the chat's first page parses about half the bytes, which is most of
      // the web shape's start (docs/architecture.md "Performance targets").
      minify: true,
      outDir: 'out/renderer',
      rollupOptions: {
        input: {
          index: resolve('src/renderer/index.html'),
          'first-screen': resolve('src/renderer/src/first-screen.ts'),
        },
      },
    },
  },
});

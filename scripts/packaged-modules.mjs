/**
 * Which installed packages the packaged app must carry (docs/desktop.md "Installers"). The renderer's packages are
 * bundled by vite into `out/renderer`, so neither they nor what only they depend on (pdf.js's canvas binary, shiki's
 * grammars, Monaco…) belong in the installer. This walks the installed dependency graph from both sides and returns
 * the packages reachable from the renderer's roots and never from the main process's, for electron-builder's
 * `files` to leave out. `test/packaging/builder-config.test.ts` checks the roots against the imports in the source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The dependencies in package.json that only the renderer imports. */
export const RENDERER_ROOTS = [
  '@tanstack/react-virtual',
  'diff',
  'dompurify',
  'marked',
  'monaco-editor',
  'react',
  'react-dom',
  'shiki',
  'zustand',
];
/**
 * Optional dependencies of the main side's packages that it never loads: pdf.js's canvas (the core reads a PDF's
 * text only, and pdf-text-worker.ts stands in for the DOMMatrix pdf.js would take from it), with its 32 MB binary.
 */
export const MAIN_NEVER_LOADS = ['@napi-rs/canvas'];

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Node's lookup: `<from>/node_modules/<name>`, then each parent's, up to the project root. */
function locate(root, fromDir, name) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dirname(dir) === dir) return null;
  }
}

/** Every installed package name reachable from `names` (dependencies, optional and peer dependencies that are installed). */
export function dependencyClosure(root, names, skip = []) {
  const seen = new Set();
  const visitedDirs = new Set();
  const queue = names.map((name) => ({ name, from: root }));
  while (queue.length) {
    const { name, from } = queue.pop();
    const dir = locate(root, from, name);
    if (!dir || visitedDirs.has(dir)) continue;
    visitedDirs.add(dir);
    seen.add(name);
    const pkg = readJson(join(dir, 'package.json'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies }))
      if (!skip.includes(dep)) queue.push({ name: dep, from: dir });
  }
  return seen;
}

/** The packages only the renderer needs (and what the main side never loads), sorted. */
export function rendererOnlyPackages(root) {
  const pkg = readJson(join(root, 'package.json'));
  const all = Object.keys(pkg.dependencies ?? {});
  const main = dependencyClosure(
    root,
    all.filter((name) => !RENDERER_ROOTS.includes(name)),
    MAIN_NEVER_LOADS,
  );
  return [...dependencyClosure(root, all)].filter((name) => !main.has(name)).sort();
}

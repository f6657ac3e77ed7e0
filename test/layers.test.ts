/**
 * The layer arrows of docs/architecture.md "Layers", checked on every import of every source file (so it fails in CI
 * without lint): shared imports nothing but zod; core never imports electron nor a shell; the renderer reaches the core
 * only through `window.skald`; the preload only shared + electron.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = new Set<string>();
  for (const m of text.matchAll(
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/g,
  )) {
    specs.add((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  }
  return [...specs];
}

type Layer = 'shared' | 'core' | 'desktop' | 'web' | 'preload' | 'renderer';
function layerOf(path: string): Layer | null {
  const rel = relative(src, path).split('\\').join('/');
  if (rel.startsWith('shared/')) return 'shared';
  if (rel.startsWith('main/core/')) return 'core';
  if (rel.startsWith('main/desktop/')) return 'desktop';
  if (rel.startsWith('main/web/')) return 'web';
  if (rel.startsWith('preload/')) return 'preload';
  if (rel.startsWith('renderer/')) return 'renderer';
  return null;
}

const mayImportLayer: Record<Layer, Layer[]> = {
  shared: ['shared'],
  core: ['core', 'shared'],
  desktop: ['desktop', 'core', 'shared'],
  web: ['web', 'core', 'shared'],
  preload: ['preload', 'shared'],
  renderer: ['renderer', 'shared'],
};
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);

function violations(file: string, specs = importsOf(file)): string[] {
  const from = layerOf(file)!;
  const out: string[] = [];
  for (const spec of specs) {
    if (spec.startsWith('.')) {
      const resolved = resolve(dirname(file), spec);
      // The shells read their version from the root package.json; nothing else outside src is reachable.
      if (resolved === join(root, 'package.json') && from !== 'shared' && from !== 'renderer') continue;
      const target = layerOf(resolved);
      if (target === null || !mayImportLayer[from].includes(target))
        out.push(`${from} → ${target ?? 'outside src'} (${spec})`);
      continue;
    }
    const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
    if (pkg === 'electron' && from !== 'desktop' && from !== 'preload') out.push(`${from} imports electron`);
    if (from === 'shared' && pkg !== 'zod') out.push(`shared imports ${spec}`);
    if ((from === 'renderer' || from === 'preload') && isNodeBuiltin(spec)) out.push(`${from} imports Node's ${spec}`);
  }
  return out;
}

describe('layer arrows (docs/architecture.md "Layers")', () => {
  const files = sourceFiles(src).filter((f) => !/\.test\.tsx?$/.test(f));

  it('finds the source files of every layer', () => {
    const layers = new Set(files.map(layerOf));
    for (const layer of ['shared', 'core', 'desktop', 'web', 'preload', 'renderer'] as const)
      expect(layers).toContain(layer);
  });

  it('no file breaks an arrow', () => {
    const broken = files.flatMap((file) => violations(file).map((v) => `${relative(root, file)}: ${v}`));
    expect(broken).toEqual([]);
  });

  it('the checker itself catches each kind of broken arrow', () => {
    expect(violations(join(src, 'main/core/x.ts'), ['electron'])).toHaveLength(1);
    expect(violations(join(src, 'main/core/x.ts'), ['../desktop/main'])).toHaveLength(1);
    expect(violations(join(src, 'main/core/x.ts'), ['../web/server'])).toHaveLength(1);
    expect(violations(join(src, 'renderer/src/x.ts'), ['../../main/core/index'])).toHaveLength(1);
    expect(violations(join(src, 'renderer/src/x.ts'), ['node:fs'])).toHaveLength(1);
    expect(violations(join(src, 'shared/x.ts'), ['node:path'])).toHaveLength(1);
    expect(violations(join(src, 'shared/x.ts'), ['react'])).toHaveLength(1);
    expect(violations(join(src, 'preload/x.ts'), ['../main/core/index'])).toHaveLength(1);
    expect(violations(join(src, 'main/core/x.ts'), ['../../shared/contract/index', 'zod', 'node:fs'])).toEqual([]);
  });
});

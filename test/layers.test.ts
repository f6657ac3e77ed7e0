/**
 * The layer arrows of docs/architecture.md "Layers", checked on every import of every source file (so it fails in CI
 * without lint): shared imports nothing but zod; core never imports electron nor a shell; the renderer reaches the core
 * only through `window.skald`; the preload only shared + electron. Inside the core, the rooms' levels (docs/
 * architecture.md "Layers inside the core"): platform < tools < services < session < bridge < the composition root,
 * no room importing one above it (the arrows still to turn are listed, and the list may only shrink). And no source
 * files import each other in a loop, type imports included.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
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

/** Every module a file names: static, type-only, re-exported and dynamic imports. */
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

const core = join(src, 'main/core');

/** The rooms of the core by level, lowest first (docs/architecture.md "Layers inside the core"). */
const CORE_LEVELS: Readonly<Record<string, number>> = {
  // The platform: the disk, worker threads, the grammars, the page's security headers and static files, the config.
  disk: 0,
  workers: 0,
  treesitter: 0,
  security: 0,
  http: 0,
  config: 0,
  events: 0,
  'window-events': 0,
  // The tools: every tool and its policy; what a tool needs above it reaches it through a port beside the tool.
  tools: 1,
  // The services: each owns its tables and its work; they may use each other and everything below.
  db: 2,
  secrets: 2,
  sandbox: 2,
  processes: 2,
  approval: 2,
  llm: 2,
  mcp: 2,
  agents: 2,
  plugins: 2,
  scheduler: 2,
  viewer: 2,
  rewind: 2,
  settings: 2,
  // The session: turns, tool calls, history.
  session: 3,
  // The bridge: the contract's handlers over the services and the session.
  bridge: 4,
  // The composition root builds everything; its start's warm-up (warm-up.ts) stands beside it.
  index: 5,
  'warm-up': 5,
};

/** The room of a core file: its top folder, or its own name for a file at the top. */
const roomOf = (file: string) => {
  const parts = relative(core, file).split('\\').join('/').split('/');
  return parts.length === 1 ? parts[0]!.replace(/\.tsx?$/, '') : parts[0]!;
};

function upwardArrows(file: string, specs = importsOf(file)): string[] {
  const from = roomOf(file);
  const out = new Set<string>();
  for (const spec of specs) {
    if (!spec.startsWith('.')) continue;
    const target = resolve(dirname(file), spec);
    if (!target.startsWith(core + sep)) continue;
    const to = roomOf(target);
    if (to !== from && (CORE_LEVELS[to] ?? Infinity) > (CORE_LEVELS[from] ?? -Infinity))
      out.add(`${relative(core, file).split('\\').join('/')} → ${to}`);
  }
  return [...out];
}

/** The file an import names, as the bundler finds it (`x` → `x.ts`, `x.tsx`, `x/index.ts`), or null. */
function resolveFile(from: string, spec: string, known: ReadonlySet<string>): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')])
    if (known.has(candidate)) return candidate;
  return null;
}

/** The loops of a graph (its strongly connected parts of more than one node, and nodes importing themselves). */
function loops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || graph.get(v)?.includes(v)) found.push(part.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('the rooms inside the core (docs/architecture.md "Layers inside the core")', () => {
  const files = sourceFiles(core).filter((f) => !/\.test\.tsx?$/.test(f));

  it('every room of the core has a level', () => {
    expect([...new Set(files.map(roomOf))].filter((room) => !(room in CORE_LEVELS))).toEqual([]);
  });

  it('no room imports a room above it', () => {
    expect(files.flatMap((file) => upwardArrows(file))).toEqual([]);
  });

  it('the checker catches an arrow up and lets one down pass', () => {
    expect(upwardArrows(join(core, 'tools/fs/x.ts'), ['../../session/session-store'])).toEqual([
      'tools/fs/x.ts → session',
    ]);
    expect(upwardArrows(join(core, 'approval/x.ts'), ['../bridge/handlers'])).toHaveLength(1);
    expect(upwardArrows(join(core, 'session/x.ts'), ['../approval/gate', '../tools/tool', './ports'])).toEqual([]);
  });
});

describe('no import loops between source files', () => {
  const files = sourceFiles(src).filter((f) => !/\.test\.tsx?$/.test(f));
  const known = new Set(files);
  const graph = new Map(
    files.map((f) => [
      f,
      importsOf(f)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => resolveFile(f, spec, known))
        .filter((t): t is string => t !== null),
    ]),
  );

  it('no files import each other in a loop (type imports too)', () => {
    expect(loops(graph).map((part) => part.map((f) => relative(src, f)).join(' → '))).toEqual([]);
  });

  it('the loop finder finds a loop of two, of three and a file importing itself, and nothing in a tree', () => {
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(loops(g({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([['a', 'b']]);
    expect(loops(g({ a: ['b'], b: ['c'], c: ['a'] }))).toEqual([['a', 'b', 'c']]);
    expect(loops(g({ a: ['a'] }))).toEqual([['a']]);
    expect(loops(g({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });
});

/**
 * F10, one disk policy (docs/guards.md "One disk policy"): every module of the core that reaches the file system does
 * it through src/main/core/disk/. This walks every source file of src/main/core (tests and test support aside) and
 * fails on any import of `node:fs`, `fs` or `fs/promises` outside disk/, except the short list below of modules that
 * touch only paths the app owns, or only ask what a path is (stat, readdir: nothing is opened, nothing can block), each
 * with the names it may import and why. A new reader or writer that opens files its own way fails here.
 * Check ids (F10) are listed in docs/security-checks.md.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const coreDir = join(__dirname, '..');

/** Modules outside disk/ that may import from `node:fs`: the names each may use, and why. */
const ALLOWED: Record<string, { names: string[]; why: string }> = {
  'agents/agent-registry.ts': {
    names: ['readdirSync', 'readFileSync', 'statSync'],
    why: "the agent definitions shipped with the app (config.agentsDir, inside the app's own folder)",
  },
  'db/database.ts': { names: ['mkdirSync'], why: "the database file's folder, in the data folder" },
  'db/wal-keeper.ts': {
    names: ['closeSync', 'openSync', 'readSync', 'statSync'],
    why: "the database's own -wal and -shm files, in the data folder",
  },
  'http/static-files.ts': { names: ['readFile', 'stat'], why: "the built renderer's files (the web shape's pages)" },
  'index.ts': { names: ['mkdirSync'], why: 'the data folder and the default workspace, from the config, at start' },
  'mcp/catalog.ts': {
    names: ['accessSync', 'constants', 'readFileSync'],
    why: 'the package.json of a catalog server installed with the app, and whether npx/uvx are on PATH (metadata)',
  },
  'processes/process-registry.ts': { names: ['readFileSync'], why: "/proc/<pid>/stat of the app's own children" },
  'sandbox/find.ts': {
    names: ['realpathSync', 'statSync', 'readdir'],
    why: 'which secrets/ folders the sandbox must hide (names and kinds only, nothing read)',
  },
  'sandbox/plan.ts': {
    names: ['readdirSync', 'realpathSync', 'statSync'],
    why: "the sandbox's mounts: what a path is, and the folders to hide (metadata only)",
  },
  'sandbox/sandbox.ts': {
    names: ['closeSync', 'mkdtempSync'],
    why: "a sandboxed command's private /tmp, made fresh by the app",
  },
  'sandbox/seccomp.ts': {
    names: ['mkdtempSync', 'openSync', 'rmSync', 'writeFileSync'],
    why: 'the seccomp filter the app writes into a folder of its own (mkdtemp) and hands to bubblewrap',
  },
  'sandbox/status.ts': { names: ['readFileSync'], why: '/proc/sys, whether user namespaces are on' },
  'secrets/secret-cipher.ts': {
    names: ['chmodSync', 'readFileSync', 'statSync', 'writeFileSync'],
    why: "the data folder's key file, made by the app (0600, created with O_EXCL)",
  },
  'tools/fs/rg-spawner.ts': {
    names: ['constants', 'existsSync', 'mkdtempSync', 'openSync', 'readFileSync', 'rmSync', 'writeFileSync'],
    why: "rg's job files in a folder the app makes (mkdtemp, 0700): its arguments written, its output FIFO opened",
  },
  'tools/_policy/procfs.ts': { names: ['readdirSync', 'readFileSync'], why: '/proc, for a process group being alive' },
  'treesitter/grammars.ts': { names: ['readFileSync'], why: "the grammar wasm files shipped with the app's modules" },
  'workers/spawn-worker.ts': {
    names: ['existsSync', '*'],
    why: "whether a worker's built script is there; from source only, the new thread's first code (a string) imports fs to write its esbuild bundle under out/",
  },
  // Only what a path is: stat/lstat/exists/readdir open no file and cannot block on a FIFO or a device.
  'approval/bypass.ts': { names: ['statSync'], why: 'is a bypass folder a folder (metadata only)' },
  'approval/walk-policy.ts': {
    names: ['existsSync', 'readdirSync'],
    why: 'which protected names a walk left out exist (metadata only)',
  },
  'approval/command-guards.ts': { names: ['lstatSync'], why: 'is a word of a command a symlink (metadata only)' },
  'approval/shell-globs.ts': { names: ['lstatSync', 'readdirSync'], why: 'what a glob expands to (metadata only)' },
  'session/working-directory.ts': {
    names: ['existsSync', 'statSync'],
    why: 'is the chosen working directory a folder (metadata only)',
  },
};

/** Test files and test support: not shipped, free to build their fixtures. */
const isTestSupport = (rel: string) =>
  rel.endsWith('.test.ts') || rel.endsWith('test-kit.ts') || rel.split('/').includes('_testing');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const FS_MODULE = `['"](?:node:)?fs(?:/promises)?['"]`;

/**
 * What a source imports from `fs` (names; `*` for a whole-module import); type-only imports are left out (they open
 * nothing). Static and dynamic imports, `export … from`, and `require`.
 */
function fsImports(text: string): string[] {
  const names: string[] = [];
  const named = new RegExp(`(?:import|export)\\s+(type\\s+)?\\{([^}]*)\\}\\s*from\\s*${FS_MODULE}`, 'g');
  for (const m of text.matchAll(named)) {
    if (m[1]) continue;
    for (const part of m[2]!.split(',')) {
      const spec = part.trim();
      if (spec === '' || spec.startsWith('type ')) continue;
      names.push(spec.split(/\s+as\s+/)[0]!.trim());
    }
  }
  const whole = new RegExp(
    `import\\s+(?!type\\b)[\\w$]+(?:\\s*,\\s*\\{[^}]*\\})?\\s+from\\s*${FS_MODULE}|import\\s+\\*\\s+as\\s+[\\w$]+\\s+from\\s*${FS_MODULE}|export\\s+\\*\\s+from\\s*${FS_MODULE}|import\\s*\\(\\s*${FS_MODULE}\\s*\\)|require\\(\\s*${FS_MODULE}\\s*\\)`,
    'g',
  );
  for (const _ of text.matchAll(whole)) names.push('*');
  return names;
}

describe('F10: the core reaches the file system only through the disk module', () => {
  const files = sources(coreDir)
    .map((full) => relative(coreDir, full).split('\\').join('/'))
    .filter((rel) => !isTestSupport(rel));

  it('finds the core modules and none outside disk/ opens files its own way', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((rel) => rel.startsWith('disk/')).length).toBeGreaterThan(5);
    const offenders: string[] = [];
    for (const rel of files) {
      if (rel.startsWith('disk/')) continue;
      const names = fsImports(readFileSync(join(coreDir, rel), 'utf8'));
      if (names.length === 0) continue;
      const allowed = ALLOWED[rel];
      const extra = names.filter((name) => !allowed?.names.includes(name));
      if (extra.length) offenders.push(`${rel}: ${extra.join(', ')}`);
    }
    expect(offenders).toEqual([]);
  });

  it('every entry of the allowlist is still needed (a module that moved onto disk/ leaves it)', () => {
    const stale = Object.keys(ALLOWED).filter(
      (rel) => !files.includes(rel) || fsImports(readFileSync(join(coreDir, rel), 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });

  it('the disk module is a leaf: its sources import only Node, src/shared and one another', () => {
    const upward: string[] = [];
    for (const rel of files.filter((f) => f.startsWith('disk/'))) {
      const text = readFileSync(join(coreDir, rel), 'utf8');
      for (const m of text.matchAll(/from\s*['"](\.[^'"]*)['"]/g)) {
        const spec = m[1]!;
        if (!spec.startsWith('./') && !spec.startsWith('../../../shared/')) upward.push(`${rel}: ${spec}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('the check itself recognises an fs import in every form, and ignores types and other modules', () => {
    expect(fsImports("import { readFileSync, statSync as st } from 'node:fs';")).toEqual(['readFileSync', 'statSync']);
    expect(fsImports('const fs = require("fs/promises")')).toEqual(['*']);
    expect(fsImports("import * as fs from 'fs';")).toEqual(['*']);
    expect(fsImports("import fs from 'node:fs';")).toEqual(['*']);
    expect(fsImports("const { open } = await import('node:fs/promises');")).toEqual(['*']);
    expect(fsImports("export { readFileSync } from 'node:fs';")).toEqual(['readFileSync']);
    expect(fsImports("import type { Stats } from 'node:fs';")).toEqual([]);
    expect(fsImports("import { type Stats, openSync } from 'node:fs';")).toEqual(['openSync']);
    expect(fsImports("import { readFile } from '../disk/open';")).toEqual([]);
    expect(fsImports("import { x } from 'fsevents';")).toEqual([]);
  });
});

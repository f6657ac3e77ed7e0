/**
 * Security checks F1–F9 (docs/security-checks.md) against a real temp workspace with real symlinks, hard links and
 * FIFOs. Each refusal is a `failed` outcome with a readable reason, and the outside world is byte-for-byte intact.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../fs/edit-file';
import { createGrepFilesTool, grepFilesTool } from '../fs/grep-files';
import { insertAtLineTool } from '../fs/insert-at-line';
import { listFilesTool } from '../fs/list-files';
import { readFileTool, MAX_READ_OUTPUT_BYTES } from '../fs/read-file';
import { replaceLinesTool } from '../fs/replace-lines';
import { searchFileTool } from '../fs/search-file';
import { writeFileTool } from '../fs/write-file';
import { getAstOutlineTool } from '../outline/get-ast-outline';
import { failed, makeWorkspace, ok, runTool, type TestWorkspace } from '../_testing/workspace';
import { readCapped } from './fs';
import type { GuardedPath } from './guard';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => ws.cleanup());

const READERS = [readFileTool, searchFileTool, getAstOutlineTool];
const readArgs = (path: string) => ({ path, pattern: 'x' });

describe('F1 traversal and absolute paths outside the workspace', () => {
  it('denies ../../etc/passwd, absolute outside paths and the sibling-prefix path for read, write and list', async () => {
    const evil = `${ws.root}-evil`;
    mkdirSync(evil);
    writeFileSync(join(evil, 'x'), 'evil');
    writeFileSync(join(ws.outside, 'o.txt'), 'outside');
    const paths = [
      '../../etc/passwd',
      '/etc/passwd',
      join(ws.outside, 'o.txt'),
      `${ws.root}/../${basename(ws.root)}-evil/x`,
    ];
    for (const path of paths) {
      for (const tool of READERS) expect(await failed(tool, readArgs(path), ws.ctx)).toMatch(/outside the workspace/);
      expect(await failed(writeFileTool, { path, content: 'pwned' }, ws.ctx)).toMatch(/outside the workspace/);
      expect(await failed(editFileTool, { path, old_string: 'e', new_string: 'E' }, ws.ctx)).toMatch(
        /outside the workspace/,
      );
    }
    for (const dir of ['..', ws.outside, evil, `${ws.root}/../${basename(ws.root)}-evil`]) {
      expect(await failed(listFilesTool, { path: dir }, ws.ctx)).toMatch(/outside the workspace/);
      expect(await failed(grepFilesTool, { path: dir, pattern: 'e' }, ws.ctx)).toMatch(/outside the workspace/);
    }
    expect(readFileSync(join(evil, 'x'), 'utf8')).toBe('evil');
    expect(readFileSync(join(ws.outside, 'o.txt'), 'utf8')).toBe('outside');
  });
});

describe('F2 symlink escapes', () => {
  it('denies reading through a link to a file outside the workspace', async () => {
    writeFileSync(join(ws.outside, 'id_rsa'), 'PRIVATE KEY');
    symlinkSync(join(ws.outside, 'id_rsa'), join(ws.root, 'leak'));
    for (const tool of READERS) expect(await failed(tool, readArgs('leak'), ws.ctx)).toMatch(/outside the workspace/);
    expect(await failed(writeFileTool, { path: 'leak', content: 'x' }, ws.ctx)).toMatch(/outside the workspace/);
    expect(readFileSync(join(ws.outside, 'id_rsa'), 'utf8')).toBe('PRIVATE KEY');
  });
});

describe('F3 secrets/', () => {
  beforeEach(() => {
    ws.write('secrets/key.txt', 'TOPSECRET');
    mkdirSync(join(ws.root, 'sub'));
    symlinkSync('../secrets', join(ws.root, 'sub', 's2'));
    ws.write('docs/readme.md', '# docs');
  });

  it('denies secrets directly, through a symlink, through .., and in another letter case', async () => {
    for (const path of [
      'secrets/key.txt',
      'sub/s2/key.txt',
      'docs/../secrets/key.txt',
      'SECRETS/key.txt',
      join(ws.root, 'Secrets', 'key.txt'),
    ]) {
      for (const tool of READERS) expect(await failed(tool, readArgs(path), ws.ctx)).toMatch(/secrets|does not exist/);
      expect(await failed(writeFileTool, { path, content: 'x' }, ws.ctx)).toMatch(/secrets/);
    }
    for (const dir of ['secrets', 'sub/s2', 'docs/../secrets'])
      expect(await failed(listFilesTool, { path: dir }, ws.ctx)).toMatch(/secrets/);
    expect(readFileSync(join(ws.root, 'secrets/key.txt'), 'utf8')).toBe('TOPSECRET');
    expect(readdirSync(join(ws.root, 'secrets'))).toEqual(['key.txt']);
  });
});

describe('F4 writes below a link that leads outside', () => {
  it('denies link/new/dir/file.txt when link -> /outside and nothing below it exists', async () => {
    symlinkSync(ws.outside, join(ws.root, 'link'));
    expect(await failed(writeFileTool, { path: 'link/new/dir/file.txt', content: 'x' }, ws.ctx)).toMatch(
      /outside the workspace/,
    );
    expect(readdirSync(ws.outside)).toEqual([]);
  });
});

describe('F5 TOCTOU: target swapped between a file and an outside symlink', () => {
  it('never lands a byte outside while write_file runs many times', async () => {
    const victim = join(ws.outside, 'victim.txt');
    writeFileSync(victim, 'ORIGINAL');
    const target = join(ws.root, 't.txt');
    // A separate process swaps the path as fast as it can, so the swaps really interleave with our syscalls.
    const swapper = spawn(
      '/bin/sh',
      [
        '-c',
        `while :; do rm -f '${target}'; ln -s '${victim}' '${target}'; rm -f '${target}'; echo x > '${target}'; done`,
      ],
      { stdio: 'ignore' },
    );
    try {
      for (let i = 0; i < 300; i++) await runTool(writeFileTool, { path: 't.txt', content: `attempt ${i}` }, ws.ctx);
    } finally {
      swapper.kill('SIGKILL');
    }
    expect(readFileSync(victim, 'utf8')).toBe('ORIGINAL');
    expect(readdirSync(ws.outside)).toEqual(['victim.txt']);
  });
});

describe('F6 hard links', () => {
  it('writes replace the link instead of writing through it; the outside file is untouched', async () => {
    const outsideFile = join(ws.outside, 'shared.txt');
    writeFileSync(outsideFile, 'OUTSIDE\n');
    linkSync(outsideFile, join(ws.root, 'h.txt'));
    await ok(writeFileTool, { path: 'h.txt', content: 'inside' }, ws.ctx);
    expect(readFileSync(outsideFile, 'utf8')).toBe('OUTSIDE\n');
    expect(readFileSync(join(ws.root, 'h.txt'), 'utf8')).toBe('inside');
    linkSync(outsideFile, join(ws.root, 'h2.txt'));
    await ok(editFileTool, { path: 'h2.txt', old_string: 'OUTSIDE', new_string: 'changed' }, ws.ctx);
    await ok(insertAtLineTool, { path: 'h2.txt', line: 1, content: 'top' }, ws.ctx);
    expect(readFileSync(outsideFile, 'utf8')).toBe('OUTSIDE\n');
  });
});

describe('F7 protected paths', () => {
  const cases: [string, string][] = [
    ['.git/hooks/pre-commit', '.git/objects/ab/x'],
    ['.git/config', '.git/description'],
    ['.vscode/settings.json', 'notes.md'],
    ['.vscode/tasks.json', 'vscode-notes.md'],
    ['.mcp.json', 'mcp.json'],
    ['.bashrc', 'bashrc.txt'],
    ['.zshrc', 'zshrc.md'],
    ['.profile', 'profile.txt'],
    ['sub/.git/hooks/post-checkout', 'sub/.git/HEAD'],
    ['.skald/config.json', 'skald.json'],
    ['.GIT/Hooks/pre-push', '.gitignore'],
  ];

  it('are never writable by any write tool; a sibling stays writable', async () => {
    for (const [blocked, sibling] of cases) {
      expect(await failed(writeFileTool, { path: blocked, content: '#!/bin/sh\nrm -rf ~' }, ws.ctx)).toMatch(
        /protected path/,
      );
      expect(existsSync(join(ws.root, blocked))).toBe(false);
      expect(await ok(writeFileTool, { path: sibling, content: 'ok\n' }, ws.ctx)).toMatch(/Created/);
    }
    ws.write('.git/config', '[core]\n');
    for (const [tool, args] of [
      [editFileTool, { old_string: '[core]', new_string: '[core]\n\thooksPath = /tmp' }],
      [insertAtLineTool, { line: 1, content: 'x' }],
      [replaceLinesTool, { start_line: 1, end_line: 1, content: 'x' }],
    ] as const) {
      expect(await failed(tool, { path: '.git/config', ...args }, ws.ctx)).toMatch(/protected path/);
    }
    expect(readFileSync(join(ws.root, '.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('a link to a protected path is refused too', async () => {
    ws.write('.git/config', '[core]\n');
    symlinkSync('.git/config', join(ws.root, 'innocent.txt'));
    expect(await failed(writeFileTool, { path: 'innocent.txt', content: 'x' }, ws.ctx)).toMatch(/protected path/);
    expect(readFileSync(join(ws.root, '.git/config'), 'utf8')).toBe('[core]\n');
  });

  it("refuses the app's data dir; a workspace inside it stays writable", async () => {
    const dataDir = join(ws.base, 'data');
    const inner = join(dataDir, 'workspace');
    mkdirSync(inner, { recursive: true });
    writeFileSync(join(dataDir, 'skald.db'), 'DB');
    const ctx = { ...ws.ctx, workspaceDir: dataDir, workingDir: inner, protectedRoots: [dataDir] };
    expect(await failed(writeFileTool, { path: join(dataDir, 'skald.db'), content: 'x' }, ctx)).toMatch(/data folder/);
    expect(await failed(writeFileTool, { path: '../rules.json', content: 'x' }, ctx)).toMatch(/data folder/);
    const nested = { ...ctx, workspaceDir: inner };
    expect(await ok(writeFileTool, { path: 'notes.md', content: 'fine' }, nested)).toMatch(/Created/);
    expect(readFileSync(join(dataDir, 'skald.db'), 'utf8')).toBe('DB');
  });
});

describe('F8 recursive tools: secrets, symlinks out, loops', () => {
  it('skip secrets/, do not follow directory links out, and end on loops', async () => {
    ws.write('secrets/token.txt', 'needle-secret');
    ws.write('src/a.txt', 'needle here');
    writeFileSync(join(ws.outside, 'o.txt'), 'needle outside');
    symlinkSync(ws.outside, join(ws.root, 'src', 'out'));
    symlinkSync('..', join(ws.root, 'src', 'loop'));
    symlinkSync('../secrets', join(ws.root, 'src', 'sec'));
    symlinkSync('a.txt', join(ws.root, 'src', 'alias.txt'));

    const listing = await ok(listFilesTool, { recursive: true }, ws.ctx);
    expect(listing).not.toMatch(/token|secrets\//);
    expect(listing).not.toContain('o.txt');
    expect(listing).toMatch(/src\/out@ \(symlink not followed/);
    expect(listing).toMatch(/src\/sec@ \(symlink not followed/);

    for (const grep of [
      createGrepFilesTool({ ripgrepPath: '/usr/bin/rg', jsPrefixMs: 0 }),
      createGrepFilesTool({ ripgrepPath: null }),
    ]) {
      const files = await ok(grep, { pattern: 'needle', output_mode: 'files_only' }, ws.ctx);
      // grep_files follows no symlink at all (ripgrep's default, matched by the JS engine).
      expect(files.split('\n').slice(0, -1)).toEqual(['src/a.txt']);
      const fromSrc = await ok(grep, { pattern: 'needle', path: 'src' }, ws.ctx);
      expect(fromSrc).toContain('a.txt:1:needle here');
      expect(fromSrc).not.toMatch(/outside|secret/);
    }
  });
});

describe('F9 read caps, binary and special files', () => {
  it('caps bytes of output, cuts long lines, detects binary files', async () => {
    ws.write('wide.txt', `${'x'.repeat(5000)}\n`.repeat(200));
    const out = await ok(readFileTool, { path: 'wide.txt' }, ws.ctx);
    expect(out).toContain('[line cut at 2000 chars]');
    ws.write('huge.txt', `${'y'.repeat(1900)}\n`.repeat(1000));
    const huge = await ok(readFileTool, { path: 'huge.txt' }, ws.ctx);
    expect(Buffer.byteLength(huge)).toBeLessThan(MAX_READ_OUTPUT_BYTES + 500);
    expect(huge).toMatch(/call read_file with offset=\d+ to continue/);
    ws.write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]));
    expect(await failed(readFileTool, { path: 'img.png' }, ws.ctx)).toMatch(/binary/);
  });

  it('refuses a FIFO without blocking, and a device', async () => {
    execFileSync('mkfifo', [join(ws.root, 'pipe')]);
    expect(await failed(readFileTool, { path: 'pipe' }, ws.ctx)).toMatch(/FIFO/);
    expect(await failed(searchFileTool, { path: 'pipe', pattern: 'x' }, ws.ctx)).toMatch(/FIFO/);
    expect(await failed(writeFileTool, { path: 'pipe', content: 'x' }, ws.ctx)).toMatch(/not a regular file/);
    expect((await ok(grepFilesTool, { pattern: 'x' }, ws.ctx)).startsWith('No matches')).toBe(true);
    // Devices live outside any workspace; the facade itself must still refuse one.
    const dev: GuardedPath = {
      input: '/dev/zero',
      absolute: '/dev/zero',
      real: '/dev/zero',
      root: '/',
      display: '/dev/zero',
      scope: { root: '/', protectedRoots: [] },
    };
    expect(() => readCapped(dev, 10)).toThrow(/device/);
  });
});

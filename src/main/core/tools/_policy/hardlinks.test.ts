/**
 * Hard links to guarded files, on a real workspace with real hard links (`link(2)`): a second name of a file in a
 * secrets/ folder or in the app's data folder is refused by every tool that reads content, whichever name, folder
 * or engine is used; a hard link to an ordinary file still reads.
 */
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../fs/edit-file';
import { createGrepFilesTool, grepFilesTool } from '../fs/grep-files';
import { insertAtLineTool } from '../fs/insert-at-line';
import { readFileTool } from '../fs/read-file';
import { replaceLinesTool } from '../fs/replace-lines';
import { searchFileTool } from '../fs/search-file';
import { getAstOutlineTool } from '../outline/get-ast-outline';
import { failed, makeWorkspace, ok, runTool, type TestWorkspace } from '../_testing/workspace';
import { forgetGuardedIdentities, guardedIdentities, MAX_WALK_DIRS } from './hardlinks';

let ws: TestWorkspace;
let dataDir: string;
beforeEach(() => {
  ws = makeWorkspace();
  dataDir = join(ws.base, 'data');
  mkdirSync(dataDir);
  ws.ctx.protectedRoots = [dataDir];
  forgetGuardedIdentities();
});
afterEach(() => ws.cleanup());

const SECRET = 'TOPSECRET-hardlink';
const jsGrep = createGrepFilesTool({ ripgrepPath: null });
/** The JS engine with its worker threads from the first file: a worker's hit in a file with other names is judged here. */
const poolGrep = createGrepFilesTool({ ripgrepPath: null, poolAfterMs: 0 });
/** ripgrep answering alone (no JS search of the walk's first files beside it). */
const rgGrep = createGrepFilesTool({ ripgrepPath: '/usr/bin/rg', jsPrefixMs: 0 });

/** [label, where the guarded file is, where the link goes] */
const CASES: [string, (ws: TestWorkspace) => string, string][] = [
  ['workspace secrets/', (w) => w.write('secrets/key.txt', `${SECRET}\n`), 'hl.txt'],
  [
    'workspace secrets/, linked as a source file',
    (w) => w.write('secrets/k.ts', `export const k = '${SECRET}';\n`),
    'src/k.ts',
  ],
  [
    'a nested Secrets/ folder, other letter case',
    (w) => w.write('proj/a/Secrets/deep/key.py', `${SECRET} = 1\n`),
    'src/hl.py',
  ],
  [
    'the data folder (settings)',
    () => (writeFileSync(join(dataDir, 'settings.json'), `{"k":"${SECRET}"}\n`), join(dataDir, 'settings.json')),
    'notes/settings-copy.json',
  ],
  [
    'the data folder (key file)',
    () => (writeFileSync(join(dataDir, 'secret.key'), `${SECRET}\n`), join(dataDir, 'secret.key')),
    '.hidden-key',
  ],
];

describe('hard links to guarded files are refused by every content reader', () => {
  for (const [label, make, linkRel] of CASES) {
    it(label, async () => {
      const target = make(ws);
      mkdirSync(join(ws.root, linkRel, '..'), { recursive: true });
      linkSync(target, join(ws.root, linkRel));
      for (const [tool, args] of [
        [readFileTool, { path: linkRel }],
        [searchFileTool, { path: linkRel, pattern: 'TOP' }],
        [getAstOutlineTool, { path: linkRel }],
        [editFileTool, { path: linkRel, old_string: 'TOP', new_string: 'top' }],
        [insertAtLineTool, { path: linkRel, line: 1, content: 'x' }],
        [replaceLinesTool, { path: linkRel, start_line: 1, end_line: 1, content: 'x' }],
      ] as const) {
        const outcome = await runTool(tool, args, ws.ctx);
        expect(JSON.stringify(outcome)).not.toContain(SECRET);
        expect(outcome.kind).toBe('failed');
        // The outline tool refuses these extensions before it reads; every other reader names the reason.
        if (outcome.kind === 'failed' && tool !== getAstOutlineTool)
          expect(outcome.error).toMatch(/hard link to a protected file/);
      }
      for (const grep of [grepFilesTool, jsGrep, poolGrep, rgGrep]) {
        for (const args of [
          { pattern: 'TOPSECRET' },
          { pattern: 'TOPSECRET', context_lines: 2 },
          { pattern: 'TOPSECRET', output_mode: 'files_only' },
          { pattern: 'topsecret', case_insensitive: true, path: linkRel },
        ]) {
          const out = await ok(grep, args, ws.ctx);
          expect(out).not.toContain(SECRET);
          if (!('path' in args)) expect(out).not.toContain(linkRel.split('/').at(-1));
        }
      }
      expect(readFileSync(target, 'utf8')).toContain(SECRET); // nothing was changed either
    });
  }

  it('a hard link to an ordinary file (inside or outside the workspace) still reads', async () => {
    ws.write('secrets/key.txt', SECRET);
    const plain = ws.write('a.txt', 'plain words\n');
    linkSync(plain, join(ws.root, 'b.txt'));
    writeFileSync(join(ws.outside, 'o.txt'), 'outside words\n');
    linkSync(join(ws.outside, 'o.txt'), join(ws.root, 'o-link.txt'));
    expect(await ok(readFileTool, { path: 'b.txt' }, ws.ctx)).toContain('plain words');
    expect(await ok(readFileTool, { path: 'o-link.txt' }, ws.ctx)).toContain('outside words');
    expect(await ok(grepFilesTool, { pattern: 'words', output_mode: 'files_only' }, ws.ctx)).toMatch(
      /a\.txt\nb\.txt\no-link\.txt/,
    );
  });

  it('a file hard-linked after the last walk is caught once the short cache expires', async () => {
    ws.write('a.txt', 'x');
    linkSync(join(ws.root, 'a.txt'), join(ws.root, 'a2.txt'));
    expect(await ok(readFileTool, { path: 'a2.txt' }, ws.ctx)).toContain('x');
    const key = ws.write('secrets/new.key', SECRET);
    linkSync(key, join(ws.root, 'late.txt'));
    const later = guardedIdentities(ws.root, [dataDir], Date.now() + 60_000);
    expect(later.ids.size).toBe(1);
    expect(await failed(readFileTool, { path: 'late.txt' }, ws.ctx)).toMatch(/hard link/);
  });

  it('the walk is bounded and says when it could not finish', () => {
    for (let i = 0; i < 12; i++) mkdirSync(join(ws.root, 'many', String(i)), { recursive: true });
    expect(guardedIdentities(ws.root, [dataDir], Date.now(), 10).isComplete).toBe(false);
    forgetGuardedIdentities();
    expect(guardedIdentities(ws.root, [dataDir], Date.now(), MAX_WALK_DIRS).isComplete).toBe(true);
  });
});

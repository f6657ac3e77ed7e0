/**
 * ripgrep's binary rule (grep-binary.ts) on files whose NUL lies where it matters: in the first 3 bytes' line, in the
 * first 64 KB (past 8 KB: the audit's file, once searched as text by the JS engine), past 64 KB with matches before
 * and after it, after a first line longer than the buffer. Every engine, in every mode, gives what the real rg CLI
 * prints for the folder (its lines before a late NUL, no notice as an entry, no count for a file it stopped in).
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';
import { RG_FIRST_FILL_BYTES, searchedBytes, searchedFromHead } from './grep-binary';
import { createGrepFilesTool } from './grep-files';
import { GrepPool } from './grep-pool';

const RG = '/usr/bin/rg';
let ws: TestWorkspace;

/** Lines of filler up to `bytes`, each numbered so that no two are alike. */
const filler = (bytes: number, tag: string) => {
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `${tag} filler line ${i} of plain text\n`;
  return text;
};

beforeAll(() => {
  ws = makeWorkspace();
  ws.write('nul-first/a.txt', '\0needle\n');
  ws.write('break-in-peek/b.txt', 'needle\nx\0 needle\n'); // rg's first read (3 bytes) holds no break: binary
  ws.write('break-in-peek/c.txt', 'n\nneedle\0\nneedle\n'); // …holds one: its line `n` is searched
  ws.write('break-in-peek/d.txt', 'ne\nedle\n\0needle\n');
  ws.write('past-8k/e.txt', `needle first\n${filler(9000, 'e')}needle before\n\0\nneedle after\n`);
  const late = `needle top\n${filler(50_000, 'f')}needle mid\n${filler(70_000, 'g')}needle late\n`;
  ws.write('past-64k/f.txt', `${late}x\0y\nneedle after the nul\n${filler(3000, 'h')}`);
  // A match ending just before the second fill's end (3 bytes, then 65,535), one crossing it: only the first is read.
  ws.write('past-64k/k.txt', `${'a\n'.repeat(32_760)}needle1\nneedle2 xx\n${filler(4000, 'k')}\0\n`);
  ws.write('past-64k/plain.txt', `needle in a text file\n${filler(200_000, 'i')}needle at its end\n`);
  // A first line longer than rg's buffer: the first fill grows and reads on to the NUL.
  ws.write('long-line/g.txt', `needle ${'x'.repeat(RG_FIRST_FILL_BYTES + 5000)}\n\0\nneedle\n`);
  ws.write('long-line/h.txt', `needle ${'x'.repeat(RG_FIRST_FILL_BYTES + 5000)}\n${filler(150_000, 'j')}\0\n`);
});
afterAll(() => ws.cleanup());

/** The real rg CLI over one folder (only it: a long line grows a thread's buffer for the files after it). */
function rgSays(folder: string, args: string[]): string[] {
  let out = '';
  try {
    out = execFileSync(RG, ['--no-config', '-j1', '--sort', 'path', '--null', ...args, 'needle', '.'], {
      cwd: `${ws.root}/${folder}`,
      encoding: 'utf8',
    });
  } catch (error) {
    if ((error as { status?: number }).status !== 1) throw error; // 1: no match
  }
  return out
    .split(args.includes('-l') ? '\0' : '\n')
    .filter((r) => r && r !== '--' && !/binary file/.test(r))
    .map((r) => r.replace(/^\.\//, '').replace('\0', ':').slice(0, 80));
}

const ENGINES = {
  js: createGrepFilesTool({ ripgrepPath: null, pool: null }),
  pooled: createGrepFilesTool({ ripgrepPath: null, pool: new GrepPool(), poolAfterMs: 0 }),
  'rg stream': createGrepFilesTool({ ripgrepPath: RG, jsPrefixMs: 0 }),
  'rg batches': createGrepFilesTool({ ripgrepPath: RG, jsPrefixMs: 0, streamBudgetBytes: 0 }),
  'JS prefix, then rg': createGrepFilesTool({ ripgrepPath: RG, jsPrefixFiles: 1 }),
};

const MODES = [
  { name: 'content', rg: ['-n'], args: {} },
  { name: 'files', rg: ['-l'], args: { output_mode: 'files_only' } },
  { name: 'count', rg: ['-c'], args: { output_mode: 'count' } },
  { name: 'context', rg: ['-n', '-C2'], args: { context_lines: 2 } },
] as const;

describe("every engine follows ripgrep's binary rule", () => {
  for (const folder of ['nul-first', 'break-in-peek', 'past-8k', 'past-64k', 'long-line'])
    for (const mode of MODES)
      it(`${folder}, ${mode.name}`, async () => {
        const expected = rgSays(folder, [...mode.rg]);
        for (const [name, tool] of Object.entries(ENGINES)) {
          const out = await ok(tool, { pattern: 'needle', path: folder, limit: 5000, ...mode.args }, ws.ctx);
          const entries = out
            .split('\n')
            .filter((l) => l && l !== '--' && !l.startsWith('[') && !l.startsWith('No matches'))
            .map((l) => l.replace(/^([\w.]+?)[:-](\d+)([:-])/, (_m, p, n, s) => `${p}:${n}${s}`).slice(0, 80));
          expect(`${name}: ${entries.join('\n')}`).toBe(`${name}: ${expected.join('\n')}`);
        }
      });

  it('the cases are the ones meant: the rule cuts where it should', () => {
    const bytes = (text: string) => Buffer.from(text);
    expect(searchedFromHead(bytes('\0needle\n'), 8)).toBe(0);
    expect(searchedFromHead(bytes('n\nneedle\0\n'), 10)).toBe(2);
    expect(searchedFromHead(bytes('needle\nx\0'), 9)).toBe(0);
    expect(searchedFromHead(bytes('plain\n'), 6)).toBe(6);
    expect(searchedFromHead(Buffer.alloc(RG_FIRST_FILL_BYTES, 0x61), RG_FIRST_FILL_BYTES + 10)).toBeNull();
    const late = Buffer.from(`${'a\n'.repeat(50_000)}\0`);
    // Fills: 3 bytes (its lines up to 2), then 65,535 more (up to 65,538, a break), then 64 KB: the NUL.
    expect(searchedBytes(late, 0)).toBe(2 + RG_FIRST_FILL_BYTES);
    expect(searchedBytes(Buffer.from('abc'), 0)).toBe(3);
  });
});

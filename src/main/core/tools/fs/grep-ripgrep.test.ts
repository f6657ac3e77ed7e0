/**
 * The ripgrep engine's two ways to a page on a real tree, against real rg: the one stream, and (forced with a zero
 * stream budget) "walk in order, search batch by batch"; and the JS engine's worker threads. All give exactly the
 * one-thread JS engine's pages, in every mode, on every page, with protected subtrees and a hard link to a secret
 * left out before they count. An rg that
 * logs its arguments shows that a cut page stops the stream and searches only the first files, in walk order.
 */
import { chmodSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetGuardedIdentities } from '../_policy/hardlinks';
import { makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';
import { createGrepFilesTool } from './grep-files';
import { GrepPool } from './grep-pool';
import { FIRST_UNITS, ripgrepInOrder } from './grep-rg-batches';
import { ORDERED_STREAMS } from './grep-rg-ordered';
import { ripgrepEngine, streamBesideFirstBatch } from './grep-ripgrep';
import { compareRel, type FileMatches } from './grep-engines';

const RG = '/usr/bin/rg';
let ws: TestWorkspace;

beforeEach(() => {
  ws = makeWorkspace();
  forgetGuardedIdentities();
  // 12 folders × 10 files, each with a few matching lines among others; a deeper level; long and CRLF lines.
  for (let d = 0; d < 12; d++) {
    for (let f = 0; f < 10; f++) {
      const lines = Array.from({ length: 30 }, (_, l) =>
        l % 7 === f % 7 ? `hit ${d}.${f}.${l} Needle` : `plain ${l}`,
      );
      if (f === 3) lines.push(`${'x'.repeat(3000)} needle at the end`);
      ws.write(`pkg${d}/mod/file${f}.txt`, `${lines.join(f === 5 ? '\r\n' : '\n')}\n`);
    }
    ws.write(`pkg${d}/top.txt`, 'needle on top\n');
  }
  ws.write('secrets/key.txt', 'needle secret\n');
  linkSync(join(ws.root, 'secrets/key.txt'), join(ws.root, 'pkg4/alias.txt'));
  ws.write('private/notes.txt', 'needle private\n');
});
afterEach(() => ws.cleanup());

/** A stand-in for rg: a shell script in the test's base folder that runs `script` (which runs rg itself). */
function rgWrapper(name: string, script: string): string {
  const path = join(ws.base, name);
  writeFileSync(path, `#!/bin/sh\n${script}`);
  chmodSync(path, 0o755);
  return path;
}

/** Script lines that swap the searched folder for a link to `vault`, run rg in it, then put the folder back. */
const rgThroughALink = (vault: string) => {
  const dir = ws.root;
  return (
    `mv '${dir}' '${dir}.away' && ln -s '${vault}' '${dir}' && cd '${dir}'\n${RG} "$@"\ncode=$?\n` +
    `rm '${dir}' && mv '${dir}.away' '${dir}'\nexit $code\n`
  );
};

const protectedCtx = () => ({
  ...ws.ctx,
  protectedPaths: {
    excludes: (p: string) => p === join(ws.root, 'private'),
    describeUnder: () => ['private/ (a deny rule)'],
  },
});

describe('ripgrep (one stream, in-order batches, after a JS search of the first files) and the JS engine with worker threads give the one-thread JS answer', () => {
  const js = createGrepFilesTool({ ripgrepPath: null });
  const stream = createGrepFilesTool({ ripgrepPath: RG, jsPrefixMs: 0 });
  const batches = createGrepFilesTool({ ripgrepPath: RG, streamBudgetBytes: 0, jsPrefixMs: 0 });
  // The JS engine searches the walk's first files, ripgrep the rest (the app's default, with a file count for a bound).
  const joined = createGrepFilesTool({ ripgrepPath: RG, jsPrefixFiles: 5 });
  const joinedBatches = createGrepFilesTool({ ripgrepPath: RG, streamBudgetBytes: 0, jsPrefixFiles: 5 });
  // The JS engine with its worker threads from the first file, and with a pool whose workers cannot start.
  const pool = new GrepPool();
  const pooled = createGrepFilesTool({ ripgrepPath: null, pool, poolAfterMs: 0 });
  const broken = createGrepFilesTool({
    ripgrepPath: null,
    pool: new GrepPool(() => {
      throw new Error('no threads here');
    }),
    poolAfterMs: 0,
  });
  const queries = [
    { pattern: 'needle', case_insensitive: true },
    { pattern: 'needle', case_insensitive: true, limit: 7 },
    { pattern: 'needle', case_insensitive: true, limit: 7, offset: 7 },
    { pattern: 'needle', case_insensitive: true, limit: 50, offset: 333 },
    { pattern: 'Needle', context_lines: 2, limit: 9 },
    { pattern: 'needle', case_insensitive: true, context_lines: 2, limit: 40 },
    { pattern: 'hit \\d+\\.[0-4]\\.', limit: 25, offset: 3 },
    { pattern: 'needle', case_insensitive: true, output_mode: 'files_only', limit: 5, offset: 2 },
    { pattern: 'needle', case_insensitive: true, output_mode: 'count', limit: 11 },
    { pattern: 'needle', glob: 'top.txt' },
    // A glob with a path: rg matches it alike in a folder it is given whole (the batches) and in its own walk.
    { pattern: 'needle', case_insensitive: true, glob: 'pkg1*/mod/*.txt', limit: 30 },
  ];
  for (const q of queries) {
    it(JSON.stringify(q), async () => {
      const ctx = protectedCtx();
      const expected = await ok(js, q, ctx);
      const shown = expected.split('\n').filter((l) => !l.startsWith('['));
      expect(shown.join('\n')).not.toMatch(/secret|private|alias\.txt/);
      expect(shown.length).toBeGreaterThan(0);
      expect(await ok(stream, q, ctx)).toBe(expected);
      expect(await ok(batches, q, ctx)).toBe(expected);
      expect(await ok(joined, q, ctx)).toBe(expected);
      expect(await ok(joinedBatches, q, ctx)).toBe(expected);
      expect(await ok(pooled, q, ctx)).toBe(expected);
      expect(await ok(broken, q, ctx)).toBe(expected);
    });
  }

  it('the worker threads really ran', async () => {
    await ok(pooled, { pattern: 'needle' }, ws.ctx);
    expect(pool.usesWorkers).toBe(true);
    expect(pool.liveWorkers).toBeGreaterThan(0);
    await pool.close();
    expect(pool.liveWorkers).toBe(0);
  });

  it('pages made batch by batch, put together, are the whole answer, without gaps or repeats', async () => {
    const all = await ok(js, { pattern: 'needle', case_insensitive: true, limit: 5000 }, ws.ctx);
    const pages: string[] = [];
    for (let offset = 0; ; offset += 40) {
      const page = await ok(batches, { pattern: 'needle', case_insensitive: true, limit: 40, offset }, ws.ctx);
      pages.push(...page.split('\n').slice(0, -1));
      if (/end of results/.test(page)) break;
    }
    expect(pages).toEqual(all.split('\n').slice(0, -1));
  });
});

describe('batches that stop part-way leave the rest of the walk to one run', () => {
  it("their hits, then the run's hits after what they searched, are the walk's hits after the start, without gaps or repeats", async () => {
    const q = { pattern: 'needle', caseInsensitive: true, mode: 'content' as const };
    const signal = new AbortController().signal;
    const want = { entries: 5001 };
    const lines = (hits: FileMatches[]) => hits.flatMap((h) => h.matches.map((no) => `${h.rel}:${no + 1}`));
    const all = (await ripgrepEngine(RG, ws.root, false, q, signal, want))!;
    for (const after of [null, 'pkg0/mod/file3.txt', 'pkg10/top.txt']) {
      // After a first batch of 64 units (a folder weighs 8), less than this tree.
      const part = await ripgrepInOrder(RG, ws.root, q, signal, want, after, () => true, 64);
      if (part === null || Array.isArray(part)) throw new Error('the batches did not stop');
      expect(part.hits.length).toBeGreaterThan(0);
      const rest = all.filter((h) => part.isAfterSearched(h.rel));
      expect(rest.length).toBeGreaterThan(0);
      const expected = all.filter((h) => after === null || compareRel(h.rel, after) > 0);
      expect(lines([...part.hits, ...rest])).toEqual(lines(expected));
    }
  });
});

describe('a page whose end the JS search could not place: the stream beside the first batch', () => {
  it("gives the walk's first entries after the start, whoever answers: the first batch (a near page), the batches alone or past the stream's cut, or the stream (a rare pattern)", async () => {
    const signal = new AbortController().signal;
    const lines = (hits: FileMatches[]) => hits.flatMap((h) => h.matches.map((no) => `${h.rel}:${no + 1}`));
    const cases = [
      { pattern: 'needle', caseInsensitive: true, page: 6 }, // in the first batch
      { pattern: 'needle', caseInsensitive: true, page: 150 }, // past the first batch, which says it lies near
      { pattern: 'needle on top', caseInsensitive: false, page: 5 }, // past the first batch, once the stream is cut
      { pattern: 'needle on top', caseInsensitive: false, page: 101 }, // rare: the stream ends first
      { pattern: 'no such words', caseInsensitive: false, page: 101 },
    ];
    for (const { pattern, caseInsensitive, page } of cases) {
      const q = { pattern, caseInsensitive, mode: 'content' as const };
      const all = (await ripgrepEngine(RG, ws.root, false, q, signal, { entries: 5001 }))!;
      for (const after of [null, 'pkg0/mod/file3.txt', 'pkg3/top.txt']) {
        const expected = lines(all.filter((h) => after === null || compareRel(h.rel, after) > 0));
        // A first batch of 9 units (a folder two levels down weighs 8): the page of 150 lies past it.
        const got = await streamBesideFirstBatch(RG, ws.root, q, signal, { entries: page }, page, after, 9);
        if (got === null) throw new Error('rg did not answer');
        const shown = lines(got.filter((h) => after === null || compareRel(h.rel, after) > 0));
        expect(shown.slice(0, page)).toEqual(expected.slice(0, page));
        if (expected.length > page) expect(shown.length).toBeGreaterThanOrEqual(page);
      }
    }
  });
});

describe('a cut page does not search the whole tree again', () => {
  it('after the stream is stopped, rg searches only the first batch of files in walk order', async () => {
    const log = join(ws.base, 'rg.log');
    const wrapper = rgWrapper('rg-logged', `printf '%s\\n' "$*" >> '${log}'\nexec ${RG} "$@"\n`);
    const tool = createGrepFilesTool({ ripgrepPath: wrapper, streamBudgetBytes: 0, jsPrefixMs: 0 });
    const out = await ok(tool, { pattern: 'needle', case_insensitive: true, limit: 3 }, ws.ctx);
    expect(out).toMatch(/more exist/);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    // The stream (stopped), then the first batch's processes of one thread each (grep-rg-ordered.ts); the page lies in
    // the first chunk, so the second may be stopped before its wrapper logs it.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBeLessThanOrEqual(1 + ORDERED_STREAMS);
    const given = calls.slice(1).map((call) => call.split(' ').filter((w) => w.startsWith('./')));
    expect(calls.slice(1).every((call) => call.includes('--threads 1'))).toBe(true);
    // The walk's order: a folder's files first, then its subfolders; a folder two levels down is given whole.
    // Folder names sort as text (pkg1 < pkg10 < pkg2); the hard link to the secret is never searched.
    const folders = Array.from({ length: 12 }, (_, d) => `pkg${d}`).sort();
    // The first batch: FIRST_UNITS units at most (a file weighs 1, pkg4's alias.txt too though never given; a folder
    // 8), in chunks of CHUNK_UNITS or just over (here a folder's top.txt and mod), dealt to the processes in turn.
    const chunks: string[][] = [];
    let units = 0;
    for (const d of folders) {
      if (units >= FIRST_UNITS) break;
      chunks.push([`./${d}/top.txt`, `./${d}/mod`]);
      units += 9 + (d === 'pkg4' ? 1 : 0);
    }
    if (units < FIRST_UNITS) chunks.push(['./private/notes.txt']); // the root's folders are opened: its file is named
    const dealt = Array.from({ length: ORDERED_STREAMS }, (_, s) =>
      chunks.filter((_, c) => c % ORDERED_STREAMS === s).flat(),
    );
    expect(given).toContainEqual(dealt[0]); // the one that reads the first chunk
    for (const entries of given) expect(dealt).toContainEqual(entries);
  });
});

describe("context lines come from rg's own output", () => {
  it('a file whose only line matches is not read again for its context', async () => {
    // rg's run, then a line added to the one-line file: read again, it would show as context after the match.
    const wrapper = rgWrapper(
      'rg-then-edit',
      `${RG} "$@"\ncode=$?\nprintf 'added later\\n' >> '${join(ws.root, 'pkg0/top.txt')}'\nexit $code\n`,
    );
    const tool = createGrepFilesTool({ ripgrepPath: wrapper, jsPrefixMs: 0 });
    const out = await ok(tool, { pattern: 'needle on top', context_lines: 2, limit: 5000 }, ws.ctx);
    expect(out).toContain('pkg0/top.txt:1:needle on top');
    expect(out).not.toContain('added later');
    expect(readFileSync(join(ws.root, 'pkg0/top.txt'), 'utf8')).toBe('needle on top\nadded later\n');
  });
});

describe('ripgrep reads by path; what it read is shown only as a confirmed read agrees (docs/guards.md)', () => {
  it('the searched folder swapped for a link while rg runs: rg follows it, and none of what it read there is shown', async () => {
    // The wrapper swaps the searched folder for a link to another one for exactly rg's run, then puts it back; rg
    // starts in the folder by its path (the swap is made before the wrapper enters it, as a swap before the spawn's
    // chdir), so it reads the other folder's files under the searched names.
    const vault = join(ws.base, 'vault');
    mkdirSync(join(vault, 'pkg0'), { recursive: true });
    writeFileSync(join(vault, 'pkg0/top.txt'), 'needle on top VAULT-7f3a\n');
    writeFileSync(join(vault, 'only-here.txt'), 'needle VAULT-7f3a\n');
    const wrapper = rgWrapper('rg-through-a-link', rgThroughALink(vault));
    for (const output_mode of ['content', 'files_only', 'count'] as const) {
      const tool = createGrepFilesTool({ ripgrepPath: wrapper, jsPrefixMs: 0 });
      const out = await ok(tool, { pattern: 'needle', output_mode, limit: 5000 }, ws.ctx);
      expect(out).not.toContain('VAULT');
      expect(out).not.toContain('only-here');
      // rg really answered from the other folder: its line of pkg0/top.txt is not the file's, so it is left out.
      if (output_mode === 'content') expect(out).not.toContain('pkg0/top.txt:1:');
    }
  });

  it("a line rg printed is shown only where the confirmed file has it: at rg's byte offset, starting a line there", async () => {
    const vault = join(ws.base, 'vault');
    const dir = ws.root;
    // Each of these files has the line rg prints of it (as far as a result shows a line) in the searched folder's file
    // of the same name, but not where rg read it: inside a line, one line earlier, or with the line before it.
    const real = (rel: string) => readFileSync(join(dir, rel), 'utf8');
    const vaulted: Record<string, string> = {
      'pkg0/mod/file0.txt': 'hit 0.0.0\nNeedle\n', // "Needle" at the offset it has in the real file, inside a line
      'pkg0/mod/file1.txt': real('pkg0/mod/file1.txt').replace('plain 0\n', ''), // every line one line earlier
      'pkg0/mod/file2.txt': `x\n${real('pkg0/mod/file2.txt')}`, // every line one line later
    };
    for (const [rel, text] of Object.entries(vaulted)) {
      mkdirSync(join(vault, rel, '..'), { recursive: true });
      writeFileSync(join(vault, rel), text);
    }
    const wrapper = rgWrapper('rg-through-a-link', rgThroughALink(vault));
    for (const context_lines of [0, 2]) {
      const tool = createGrepFilesTool({ ripgrepPath: wrapper, jsPrefixMs: 0 });
      const out = await ok(tool, { pattern: 'needle', case_insensitive: true, context_lines, limit: 5000 }, ws.ctx);
      for (const rel of Object.keys(vaulted)) expect(out).not.toContain(rel);
    }
    // Unswapped, the same files are shown.
    const plain = createGrepFilesTool({ ripgrepPath: RG, jsPrefixMs: 0 });
    const out = await ok(plain, { pattern: 'needle', case_insensitive: true, limit: 5000 }, ws.ctx);
    for (const rel of Object.keys(vaulted)) expect(out).toContain(`${rel}:`);
  });

  it('a file checked while the stream ran is not taken as checked for the lines another rg run printed of it later', async () => {
    // A big answer (over a page) whose stream is cut: in-order batches give the answer, and only they read through
    // the swapped folder. Files the stream finished were checked then, against the lines it printed; the batches print
    // other lines of the same names.
    const vault = join(ws.base, 'vault');
    const dir = ws.root;
    for (let k = 0; k < 4; k++)
      ws.write(`many/b${k}.txt`, `${Array.from({ length: 300 }, (_, l) => `needle ${k}.${l}`).join('\n')}\n`);
    const names = ['many/b0.txt', 'many/b1.txt', 'many/b2.txt', 'many/b3.txt'];
    for (let d = 0; d < 12; d++) {
      names.push(`pkg${d}/top.txt`);
      for (let f = 0; f < 10; f++) names.push(`pkg${d}/mod/file${f}.txt`);
    }
    for (const rel of names) {
      mkdirSync(join(vault, rel, '..'), { recursive: true });
      const text = readFileSync(join(dir, rel), 'utf8');
      writeFileSync(join(vault, rel), text.replace(/^(.*eedle.*?)(\r?)$/gm, '$1 VAULT$2'));
    }
    const marker = join(ws.base, 'streamed');
    const wrapper = rgWrapper(
      'rg-then-through-a-link',
      `if [ ! -e '${marker}' ]; then touch '${marker}'; exec ${RG} "$@"; fi\n${rgThroughALink(vault)}`,
    );
    const tool = createGrepFilesTool({ ripgrepPath: wrapper, jsPrefixMs: 0, streamBudgetBytes: 0 });
    const out = await ok(tool, { pattern: 'needle', case_insensitive: true, limit: 1000 }, ws.ctx);
    expect(readFileSync(marker, 'utf8')).toBe(''); // the stream ran, and then the batches
    expect(out).not.toContain('VAULT');
  });
});

/**
 * grep_files on a real tree: the three output modes, context lines with merged hunks, offset pagination with an
 * exact "more exist" footer, glob filters, paths relative to the queried folder, binary and invalid-pattern cases.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failed, makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';
import { createGrepFilesTool } from './grep-files';
import { GrepPool } from './grep-pool';
import { BigTrees, walkShare } from './grep-prefix';
import {
  JS_ALONE_BIG_MS,
  JS_BESIDE_MS,
  JS_PREFIX_MS,
  JS_SOLO_MS,
  JS_WALK_MS,
  prefixGoesOn,
  soloGoesOn,
} from './grep-race';
import { PAGE_JS_LEFT_MS, PAGE_NO_HIT_MS, pageGoesOn } from './grep-race-page';
import { compareRel } from './grep-engines';
import { MAX_UNITS, nextBatchUnits } from './grep-rg-batches';
import { byteLines } from './grep-byte-lines';
import { clipLine, compileMatcher, hunks, lineIndex, matchingLines } from './search-engine';
import { globMatcher } from './grep-glob';

let ws: TestWorkspace;
beforeEach(() => {
  ws = makeWorkspace();
  ws.write('src/a.ts', 'import x\nconst needle = 1;\nfoo\nbar\nneedle();\n');
  ws.write('src/lib/b.py', 'def needle():\n    pass\n');
  ws.write('docs/c.md', 'no match here\n');
  ws.write('bin/blob', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]));
});
afterEach(() => ws.cleanup());

const body = (out: string) => out.split('\n').slice(0, -1);

const ENGINES = [
  ['ripgrep', createGrepFilesTool({ ripgrepPath: '/usr/bin/rg', jsPrefixMs: 0 })],
  ['js', createGrepFilesTool({ ripgrepPath: null })],
  // The JS engine reads the walk's first two files, ripgrep the rest: the answer joins the two.
  ['ripgrep after a JS prefix', createGrepFilesTool({ ripgrepPath: '/usr/bin/rg', jsPrefixFiles: 2 })],
] as const;

for (const [engine, grepFilesTool] of ENGINES)
  describe(`grep_files (${engine} engine)`, () => {
    it('content mode: path:line:text relative to the queried folder, skipping binaries', async () => {
      expect(body(await ok(grepFilesTool, { pattern: 'needle' }, ws.ctx))).toEqual([
        'src/a.ts:2:const needle = 1;',
        'src/a.ts:5:needle();',
        'src/lib/b.py:1:def needle():',
      ]);
      expect(body(await ok(grepFilesTool, { pattern: 'needle', path: 'src/lib' }, ws.ctx))).toEqual([
        'b.py:1:def needle():',
      ]);
    });

    it('files_only and count modes', async () => {
      expect(body(await ok(grepFilesTool, { pattern: 'needle', output_mode: 'files_only' }, ws.ctx))).toEqual([
        'src/a.ts',
        'src/lib/b.py',
      ]);
      expect(body(await ok(grepFilesTool, { pattern: 'needle', output_mode: 'count' }, ws.ctx))).toEqual([
        'src/a.ts:2',
        'src/lib/b.py:1',
      ]);
    });

    it('context lines merge adjacent hunks (as grep does) and separate the rest with --', async () => {
      const out = body(await ok(grepFilesTool, { pattern: 'needle', path: 'src', context_lines: 1 }, ws.ctx));
      expect(out).toEqual([
        'a.ts-1-import x',
        'a.ts:2:const needle = 1;',
        'a.ts-3-foo',
        'a.ts-4-bar',
        'a.ts:5:needle();',
        '--',
        'lib/b.py:1:def needle():',
        'lib/b.py-2-    pass',
      ]);
    });

    it('offset/limit paginate with an exact footer', async () => {
      const first = await ok(grepFilesTool, { pattern: 'needle', limit: 2 }, ws.ctx);
      expect(body(first)).toEqual(['src/a.ts:2:const needle = 1;', 'src/a.ts:5:needle();']);
      expect(first).toMatch(/more exist: call grep_files again with offset=2/);
      const second = await ok(grepFilesTool, { pattern: 'needle', limit: 2, offset: 2 }, ws.ctx);
      expect(body(second)).toEqual(['src/lib/b.py:1:def needle():']);
      expect(second).toMatch(/end of results/);
      expect(await ok(grepFilesTool, { pattern: 'needle', offset: 10 }, ws.ctx)).toMatch(/No more matches/);
      const files = await ok(
        grepFilesTool,
        { pattern: 'needle', output_mode: 'files_only', limit: 1, offset: 1 },
        ws.ctx,
      );
      expect(body(files)).toEqual(['src/lib/b.py']);
    });

    it('glob filters by file name or by path; case folding', async () => {
      expect(body(await ok(grepFilesTool, { pattern: 'needle', glob: '*.py' }, ws.ctx))).toEqual([
        'src/lib/b.py:1:def needle():',
      ]);
      expect(
        body(
          await ok(
            grepFilesTool,
            { pattern: 'NEEDLE', glob: 'src/*.{ts,js}', case_insensitive: true, output_mode: 'files_only' },
            ws.ctx,
          ),
        ),
      ).toEqual(['src/a.ts']);
    });

    it('explains bad input: invalid regex, missing folder, out-of-range context', async () => {
      expect(await failed(grepFilesTool, { pattern: '[' }, ws.ctx)).toMatch(/not a valid regular expression/);
      expect(await failed(grepFilesTool, { pattern: 'x', path: 'nope' }, ws.ctx)).toMatch(/does not exist/);
      expect(await failed(grepFilesTool, { pattern: 'x', context_lines: 11 }, ws.ctx)).toMatch(/context_lines/);
      expect(await failed(grepFilesTool, { pattern: 'x', output_mode: 'lines' }, ws.ctx)).toMatch(/output_mode/);
      expect(await ok(grepFilesTool, { pattern: 'zzz' }, ws.ctx)).toMatch(/^No matches for \/zzz\//);
      // A glob whose braces do not pair up: a sentence about the glob, not the regex engine's message.
      for (const glob of ['{a,b', 'a}', '*.{ts', '}{', '{{a}']) {
        const text = await failed(grepFilesTool, { pattern: 'x', glob }, ws.ctx);
        expect(text, glob).toMatch(/is not a valid glob: its \{ and \} do not pair up/);
        expect(text, glob).not.toMatch(/regular expression|unexpectedly/i);
      }
    });

    it('a look-behind pattern (not Rust regex syntax) still works', async () => {
      expect(body(await ok(grepFilesTool, { pattern: '(?<=const )needle' }, ws.ctx))).toEqual([
        'src/a.ts:2:const needle = 1;',
      ]);
    });
  });

describe('the two engines agree', () => {
  it('same results, same order, on a tree with tricky names, hidden files, CRLF and skipped folders', async () => {
    const names = [
      'a.txt',
      'a/b.txt',
      'a-b/c.txt',
      'a.b/d.txt',
      '.hidden/e.txt',
      'Z/f.txt',
      'z/g.txt',
      'node_modules/m/h.txt',
      'deep/x/y/z/i.txt',
      'secrets/s.txt',
      'sub/Secrets',
      'space name/j.txt',
      'target.txt',
      'target/t.txt',
    ];
    for (const [i, n] of names.entries()) ws.write(n, `line one\r\nmatch ${i} here\nnope\nmatch again ${i}\n`);
    const [rg, js, joined] = [ENGINES[0][1], ENGINES[1][1], ENGINES[2][1]];
    const queries = [
      { pattern: 'match' },
      { pattern: 'match \\d', context_lines: 1 },
      { pattern: 'MATCH', case_insensitive: true, output_mode: 'count' },
      { pattern: 'again', output_mode: 'files_only', glob: '*.txt' },
      { pattern: 'match', limit: 3, offset: 4 },
    ];
    for (const q of queries) {
      const expected = await ok(js, q, ws.ctx);
      expect(await ok(rg, q, ws.ctx), JSON.stringify(q)).toBe(expected);
      expect(await ok(joined, q, ws.ctx), `joined ${JSON.stringify(q)}`).toBe(expected);
    }
    // Lines the JS engine finds in raw bytes: not UTF-8, not ASCII, longer than shown.
    ws.write(
      'wide/long.js',
      Buffer.concat([
        Buffer.from(`var a = "${'é'.repeat(600)}"; match("x");${'中'.repeat(800)}\r\nmatch é\n`),
        Buffer.from([0xff, 0x0a]),
        Buffer.from('tail match\n'),
      ]),
    );
    for (const q of [
      { pattern: 'match' },
      { pattern: 'match', context_lines: 2 },
      { pattern: 'match', output_mode: 'count' },
    ]) {
      expect(await ok(rg, q, ws.ctx), `wide ${JSON.stringify(q)}`).toBe(await ok(js, q, ws.ctx));
    }
    const files = body(await ok(js, { pattern: 'match', output_mode: 'files_only' }, ws.ctx));
    expect(files).not.toContain('secrets/s.txt');
    expect(files).not.toContain('node_modules/m/h.txt');
    expect(files).not.toContain('sub/Secrets');
    expect(files).toContain('target.txt');
    expect(files).toContain('.hidden/e.txt');
    expect([...files].sort(compareRel)).toEqual(files);
  });
});

describe('the JS search beside ripgrep', () => {
  const page = 101;
  const barelyBegun = () => 0.01;
  it('goes on for a short while whatever it finds, then only while it would fill the page in time', () => {
    // Early on (a small tree is often read whole by then) it goes on, hits or not.
    expect(prefixGoesOn(0, 0, page, JS_PREFIX_MS, barelyBegun)).toBe(true);
    expect(prefixGoesOn(JS_BESIDE_MS - 1, 0, page, JS_PREFIX_MS, barelyBegun)).toBe(true);
    // A rare pattern on a big tree: too little found, so rg runs alone (it would otherwise share the cores).
    expect(prefixGoesOn(JS_BESIDE_MS, 0, page, JS_PREFIX_MS, barelyBegun)).toBe(false);
    expect(prefixGoesOn(JS_BESIDE_MS, 7, page, JS_PREFIX_MS, barelyBegun)).toBe(false);
    expect(prefixGoesOn(50, 25, page, JS_PREFIX_MS, barelyBegun)).toBe(false);
    // A whole answer (limit 5000) of a rare pattern is not filled by the JS search: it stops.
    expect(prefixGoesOn(JS_BESIDE_MS, 200, 5001, JS_PREFIX_MS, barelyBegun)).toBe(false);
    // A pattern common enough to fill half the page within JS_PREFIX_MS: it goes on, until then.
    expect(prefixGoesOn(JS_BESIDE_MS, 8, page, JS_PREFIX_MS, barelyBegun)).toBe(true);
    expect(prefixGoesOn(50, 26, page, JS_PREFIX_MS, barelyBegun)).toBe(true);
    // Hits that stop coming stop it: 8 found by JS_BESIDE_MS and no more by twice that.
    expect(prefixGoesOn(2 * JS_BESIDE_MS, 8, page, JS_PREFIX_MS, barelyBegun)).toBe(false);
    expect(prefixGoesOn(JS_PREFIX_MS, 100, page, JS_PREFIX_MS, barelyBegun)).toBe(false);
    // A shorter prefix (tests, or `jsPrefixMs`) ends there whatever it finds.
    expect(prefixGoesOn(5, 0, page, 5, barelyBegun)).toBe(false);
  });

  it('beside rg over a folder known to be big, goes on only while its hits would fill the page', () => {
    expect(prefixGoesOn(JS_ALONE_BIG_MS, 0, page, JS_PREFIX_MS, barelyBegun, JS_ALONE_BIG_MS)).toBe(false);
    expect(prefixGoesOn(JS_ALONE_BIG_MS, 0, 5001, JS_PREFIX_MS, barelyBegun, JS_ALONE_BIG_MS)).toBe(false);
    expect(prefixGoesOn(JS_ALONE_BIG_MS, 1, page, JS_PREFIX_MS, barelyBegun, JS_ALONE_BIG_MS)).toBe(true);
    expect(prefixGoesOn(JS_ALONE_BIG_MS / 2, 0, page, JS_PREFIX_MS, barelyBegun, JS_ALONE_BIG_MS)).toBe(true);
    // Its share of the walk is not asked (null): however near the walk's end it looks, only its hits keep it on.
    expect(prefixGoesOn(JS_BESIDE_MS, 0, 5001, JS_PREFIX_MS, null, JS_ALONE_BIG_MS)).toBe(false);
    expect(prefixGoesOn(JS_BESIDE_MS, 5000, 5001, JS_PREFIX_MS, null, JS_ALONE_BIG_MS)).toBe(true);
  });

  it('remembers the folders whose walk was too big to search alone, until a search reads one whole', () => {
    const trees = new BigTrees(2);
    trees.learn('/a', { walkDone: false, startedAsBig: true });
    expect(trees.has('/a')).toBe(true);
    // A page found before rg was needed says nothing of the size: still big.
    trees.learn('/a', { walkDone: false, startedAsBig: false });
    expect(trees.has('/a')).toBe(true);
    // The folder has shrunk: the JS search read it whole (beside rg), so the next search goes alone again.
    trees.learn('/a', { walkDone: true, startedAsBig: false });
    expect(trees.has('/a')).toBe(false);
    // Bounded: the oldest is forgotten first (a relearned one counts as new).
    for (const root of ['/x', '/y', '/x', '/z']) trees.learn(root, { walkDone: false, startedAsBig: true });
    expect(['/x', '/y', '/z'].filter((r) => trees.has(r))).toEqual(['/x', '/z']);
  });

  it('goes on over a small tree it is about to finish, not over a big one', () => {
    // The rest at the same pace: spent × (1 − share) / share.
    const atPace = JS_BESIDE_MS / (JS_BESIDE_MS + JS_WALK_MS); // the rest takes JS_WALK_MS
    expect(prefixGoesOn(JS_BESIDE_MS, 0, 5001, JS_PREFIX_MS, () => atPace * 1.01)).toBe(true);
    expect(prefixGoesOn(JS_BESIDE_MS, 0, 5001, JS_PREFIX_MS, () => atPace * 0.9)).toBe(false);
    expect(prefixGoesOn(80, 0, 5001, JS_PREFIX_MS, () => 0.9)).toBe(true); // nearly done, however long it took
    expect(prefixGoesOn(80, 0, 5001, JS_PREFIX_MS, () => 0.5)).toBe(false);
    expect(prefixGoesOn(JS_BESIDE_MS, 0, 5001, JS_PREFIX_MS, () => 0)).toBe(false);
    expect(prefixGoesOn(JS_PREFIX_MS, 0, 5001, JS_PREFIX_MS, () => 0.99)).toBe(false); // never past JS_PREFIX_MS
  });

  it('searches a small tree alone, without starting rg; a big one or a long search starts rg', () => {
    // The whole walk at the pace so far: spent / share. A tree read a fifth in 5 ms takes about 25 ms: alone.
    expect(soloGoesOn(5, JS_PREFIX_MS, () => 0.2)).toBe(true);
    expect(soloGoesOn(5, JS_PREFIX_MS, () => (5 / JS_SOLO_MS) * 1.01)).toBe(true);
    expect(soloGoesOn(5, JS_PREFIX_MS, () => (5 / JS_SOLO_MS) * 0.9)).toBe(false);
    // A big tree barely begun (the generated 100× tree, node_modules): rg starts at once.
    expect(soloGoesOn(3, JS_PREFIX_MS, () => 0.02)).toBe(false);
    expect(soloGoesOn(3, JS_PREFIX_MS, () => 0)).toBe(false);
    // However right the estimate, never past JS_SOLO_MS (the whole walk is at least the time spent), nor past the
    // prefix's own bound (tests, or `jsPrefixMs`).
    expect(soloGoesOn(JS_SOLO_MS - 1, JS_PREFIX_MS, () => 0.99)).toBe(true);
    expect(soloGoesOn(JS_SOLO_MS + 1, JS_PREFIX_MS, () => 1)).toBe(false);
    expect(soloGoesOn(5, 5, () => 0.99)).toBe(false);
  });

  it("a page's JS search goes on alone while the page's end or the walk's end looks near, else rg's batches take it", () => {
    // Left to the page at the rate so far: spent × (entries − found) / found; to the walk's end: spent × (1 − s) / s.
    expect(pageGoesOn(10, 50, 101, () => 0.01)).toBe(true); // 10 × 51 / 50 ≈ 10 ms left to the page
    expect(pageGoesOn(10, 5, 101, () => 0.01)).toBe(false); // 192 ms left, and the walk barely begun
    expect(pageGoesOn(10, 0, 101, () => 0.5)).toBe(true); // no hits, but the walk ends in 10 ms
    expect(pageGoesOn(10, 0, 101, () => 10 / (10 + PAGE_JS_LEFT_MS) - 0.01)).toBe(false);
    // A folder known to be big, no hit yet after PAGE_NO_HIT_MS: the walk's end is not looked at, only the page's.
    expect(pageGoesOn(PAGE_NO_HIT_MS, 0, 101, null)).toBe(false);
    expect(pageGoesOn(10, 50, 101, null)).toBe(true);
    // A batch holds three times what the hits say the page still needs (rg stops where the page ends), within GROWTH×
    // the last and MAX_UNITS.
    expect(nextBatchUnits(64, 64, 0, 101)).toBe(256);
    expect(nextBatchUnits(64, 64, 50, 101)).toBe(Math.ceil((51 * 64 * 3) / 50));
    expect(nextBatchUnits(64, 64, 1, 101)).toBe(256);
    expect(nextBatchUnits(4096, 8192, 1, 101)).toBe(MAX_UNITS);
  });

  it('tells how much of the walk lies before a file from the first two folder levels', () => {
    const tree: Record<string, string[]> = {
      '': ['a.txt', 'b.txt', 'pkg0', 'pkg1'],
      pkg0: ['x.ts', 'mod0', 'mod1', 'mod2', 'mod3'],
      pkg1: ['y.ts'],
    };
    const names = (dir: string) => tree[dir] ?? [];
    expect(walkShare('a.txt', names)).toBeCloseTo(1 / 4);
    expect(walkShare('b.txt', names)).toBeCloseTo(2 / 4);
    expect(walkShare('pkg0/x.ts', names)).toBeCloseTo(2 / 4 + 1 / 20);
    expect(walkShare('pkg0/mod2/deep/z.ts', names)).toBeCloseTo(2 / 4 + 3 / 20 + 1 / 40);
    expect(walkShare('pkg1/y.ts', names)).toBeCloseTo(1);
    // Not in the listing (a file that appeared since): counted as halfway through what is known.
    expect(walkShare('pkg9/q.ts', names)).toBeCloseTo(0.5);
  });
});

describe('search engine', () => {
  it('matches per line: a pattern that could span a newline does not', () => {
    const m = compileMatcher('a\\sb', false);
    expect(matchingLines(m, 'a\nb\na b\n')).toEqual([2]);
    expect(matchingLines(compileMatcher('^$', false), 'x\n\ny')).toEqual([1]);
    expect(matchingLines(compileMatcher('x', false), 'x\r\nx')).toEqual([0, 1]);
  });

  it('finds an ASCII literal in raw bytes exactly as in the decoded text: lines, texts, context, clipped long lines', () => {
    let seed = 5;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const bits = ['needle', 'x', ' ', '\n', '\r\n', 'é', '😀', '中', 'need', 'le', '\n\n'];
    for (let round = 0; round < 300; round++) {
      const parts: Buffer[] = [];
      for (let k = next(60); k > 0; k--) parts.push(Buffer.from(bits[next(bits.length)]!));
      if (round % 7 === 0) parts.splice(next(parts.length + 1), 0, Buffer.from([0xff, 0xe2, 0x82])); // not UTF-8
      if (round % 11 === 0) parts.push(Buffer.from(`${'ü'.repeat(700)}needle${'中'.repeat(900)}`)); // longer than shown
      const bytes = Buffer.concat(parts);
      const text = bytes.toString('utf8');
      const matcher = compileMatcher('needle', false);
      for (const context of [0, 1, 3]) {
        const max = round % 5 === 0 ? 1 : Number.POSITIVE_INFINITY;
        const found = byteLines(matcher, bytes, max, context)!;
        const texts: string[] = [];
        const expected = matchingLines(matcher, text, max, texts);
        const label = `round ${round}: ${JSON.stringify(text.slice(0, 80))}`;
        expect(found.matches, label).toEqual(expected);
        expect(found.texts.map(clipLine), label).toEqual(texts.map(clipLine));
        if (context === 0) continue;
        const shown = (lines: { at(no: number): string | undefined }) =>
          hunks(lines, expected, context).map((h) => h.lines.map((l) => `${l.no}:${l.isMatch}:${clipLine(l.text)}`));
        expect(shown({ at: (no) => found.around!.get(no) }), label).toEqual(shown(lineIndex(text)));
      }
    }
    expect(byteLines(compileMatcher('né', false), Buffer.from('né'), 10, 0)).toBeNull(); // not ASCII: the text path
    expect(byteLines(compileMatcher('n.e', false), Buffer.from('nxe'), 10, 0)).toBeNull(); // a regex
  });

  it('globs', () => {
    expect(globMatcher('*.ts')('a/b/c.ts')).toBe(true);
    expect(globMatcher('src/**/*.ts')('src/a.ts')).toBe(true);
    expect(globMatcher('src/**/*.ts')('src/x/y/a.ts')).toBe(true);
    expect(globMatcher('src/*.ts')('src/x/a.ts')).toBe(false);
    expect(globMatcher('*.{md,txt}')('a.txt')).toBe(true);
  });
});

describe('grep_files: a pattern rg refuses and that backtracks without end', () => {
  // rg refuses look-around, so the JS engine answers: on the app's thread, or in the pool's workers and then here.
  const pool = new GrepPool();
  afterEach(() => pool.close());
  const engines = [
    ['rg, then the JS engine', createGrepFilesTool({ ripgrepPath: '/usr/bin/rg', jsPrefixMs: 0 })],
    ['the JS engine alone', createGrepFilesTool({ ripgrepPath: null, pool: null })],
    ['the JS engine with its workers', createGrepFilesTool({ ripgrepPath: null, pool, poolAfterMs: 0 })],
  ] as const;
  it.each(engines)(
    '%s: stopped after the time limit, saying why; look-around that ends is answered',
    async (_label, tool) => {
      ws.write('src/z.txt', `${'a'.repeat(40)}b\n`);
      expect(body(await ok(tool, { pattern: 'needle(?=\\(\\);)' }, ws.ctx))).toEqual(['src/a.ts:5:needle();']);
      expect(await failed(tool, { pattern: '^(?=(a+)+$)x' }, ws.ctx)).toMatch(
        /the pattern was stopped after 3 s on one file/,
      );
    },
    30_000,
  );
});

/**
 * The outline cache and the incremental path (docs/outline.md): the same bytes give the kept outline; an edit gives
 * exactly the outline a whole parse of the new text gives (items, lines, signatures, problems), whether it was
 * spliced or not, over chains of random edits on real files (TypeScript, `.d.ts`, JavaScript, Python), including
 * edits that break the syntax, seams where JavaScript's semicolon insertion could join statements, and Python
 * indentation changes. Memory stays within the cache's bounds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileStamp } from '../_policy/fs';
import { afterAll, describe, expect, it } from 'vitest';
import { OutlinePool } from './outline-pool';
import { OutlineCache, outlineOf } from './outline-service';

const repo = resolve(__dirname, '../../../../..');
const stdlib = execFileSync('python3', ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], {
  encoding: 'utf8',
}).trim();
const pool = new OutlinePool({ size: 2 });
afterAll(() => pool.close());

function newCache(maxEntries?: number, maxChars?: number): OutlineCache {
  return new OutlineCache(() => pool, maxEntries, maxChars);
}

/** The outline through the cache, and through a whole parse: they must be the same. */
async function expectSameAsWhole(cache: OutlineCache, path: string, text: string, label: string): Promise<string> {
  return (await sameAsWhole(cache, path, text, label)).how;
}

/**
 * As expectSameAsWhole, also giving the whole parse's outline: an edit chain reads its problems, and passes it back
 * for the same text when it undoes an edit (a whole parse of the same text is the same; one parse each, not three).
 */
async function sameAsWhole(
  cache: OutlineCache,
  path: string,
  text: string,
  label: string,
  known?: Awaited<ReturnType<typeof outlineOf>>,
) {
  const cached = await cache.outline(path, Buffer.from(text), path);
  const whole = known ?? (await outlineOf(text, path, pool));
  expect(cached?.outline, label).toEqual(whole);
  return { how: cached!.how, whole };
}

/** A small deterministic random source, so a failure is replayed by its seed. */
function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s % n;
  };
}

const EDITS: ((line: string, python: boolean) => string[])[] = [
  (line, py) => [line, py ? '# a comment' : '// a comment'],
  (line) => [line.replace(/[A-Za-z_]\w*/, (w) => `${w}Renamed`)],
  () => [],
  (line) => [line, line],
  (line, py) => [line, py ? '    def added(self): pass' : '  added(): void;'],
  (line, py) => [line, py ? 'def top_level(): pass' : 'export function topLevel() {}'],
  (line, py) => [py ? `${line} (` : `${line} {`],
  (line, py) => [py ? line.replace(/^ {4}/, '') : line.replace(/;$/, '')],
  (line, py) => [line, py ? '"""' : '`'],
];

/**
 * Edits one after another; an edit that breaks the file is checked, then undone (which is checked too), so the
 * chain goes on from a file that parses.
 */
async function editChain(path: string, seed: number, steps: number): Promise<Record<string, number>> {
  const python = path.endsWith('.py');
  const cache = newCache();
  let text = readFileSync(path, 'utf8');
  let textWhole = (await sameAsWhole(cache, path, text, `${path} first`)).whole;
  const next = random(seed);
  const hows: Record<string, number> = {};
  for (let step = 0; step < steps; step++) {
    const lines = text.split('\n');
    const at = next(lines.length);
    const kind = next(EDITS.length);
    lines.splice(at, 1, ...EDITS[kind]!(lines[at]!, python));
    const edited = lines.join('\n');
    const label = `${path} seed ${seed} step ${step}: edit ${kind} at line ${at + 1}`;
    const { how, whole } = await sameAsWhole(cache, path, edited, label);
    hows[how] = (hows[how] ?? 0) + 1;
    if (whole?.problems.length) await sameAsWhole(cache, path, text, `${label}, undone`, textWhole);
    else {
      text = edited;
      textWhole = whole;
    }
  }
  return hows;
}

describe('OutlineCache', () => {
  it('gives the kept outline for the same bytes, and a fresh one for other bytes', async () => {
    const cache = newCache();
    const bytes = Buffer.from('def f():\n    pass\n');
    const first = await cache.outline('/x/a.py', bytes, '/x/a.py');
    expect(first?.how).toBe('parsed');
    const again = await cache.outline('/x/a.py', Buffer.from(bytes), '/x/a.py');
    expect(again?.how).toBe('kept');
    expect(again?.outline).toBe(first?.outline);
    const changed = await cache.outline('/x/a.py', Buffer.from('def g():\n    pass\n'), '/x/a.py');
    expect(changed?.outline.items.map((i) => i.name)).toEqual(['g']);
  });

  it('does not read a file whose stamp is the kept one; a write that keeps size and times is still seen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skald-outline-stamp-'));
    try {
      const path = join(dir, 'a.py');
      writeFileSync(path, 'def a(): pass\n');
      const old = new Date(Date.now() - 60_000);
      utimesSync(path, old, old);
      let reads = 0;
      const read = () => {
        reads++;
        return readFileSync(path);
      };
      const cache = newCache();
      // Just written: its stamp may not be trusted yet, so the bytes are read and compared.
      await cache.outline(path, read, path, fileStamp(path)?.key ?? null);
      expect(reads).toBe(1);
      await new Promise((r) => setTimeout(r, 120)); // older than a file-time tick: now the stamp identifies the bytes
      const settled = fileStamp(path)?.key ?? null;
      expect(settled).not.toBeNull();
      await cache.outline(path, read, path, settled);
      expect(reads).toBe(2);
      expect((await cache.outline(path, read, path, fileStamp(path)?.key ?? null))?.how).toBe('kept');
      expect(reads).toBe(2);
      // Same size, modification time put back: the status-change time still moved.
      const { atime, mtime } = statSync(path);
      writeFileSync(path, 'def b(): pass\n');
      utimesSync(path, atime, mtime);
      const after = await cache.outline(path, read, path, fileStamp(path)?.key ?? null);
      expect(reads).toBe(3);
      expect(after?.outline.items.map((i) => i.name)).toEqual(['b']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps at most its entries and characters, least recently used out first', async () => {
    const cache = newCache(3, 100);
    for (const name of ['a', 'b', 'c', 'd'])
      await cache.outline(`/x/${name}.py`, Buffer.from(`def ${name}(): pass\n`), `/x/${name}.py`);
    expect(cache.size).toBe(3);
    expect((await cache.outline('/x/a.py', Buffer.from('def a(): pass\n'), '/x/a.py'))?.how).toBe('parsed');
    const big = newCache(10, 100);
    await big.outline('/x/big.py', Buffer.from(`def f(): pass\n${'#'.repeat(200)}\n`), '/x/big.py');
    expect(big.size).toBe(0); // over the character bound alone: answered, not kept
  });

  it('reparses only the touched statement of a big file', async () => {
    const cache = newCache();
    const path = join(repo, 'node_modules/zod/src/v4/core/schemas.ts');
    const text = readFileSync(path, 'utf8');
    await cache.outline(path, Buffer.from(text), path);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.startsWith('export interface $ZodTypeDef'));
    lines.splice(at + 1, 0, '  added?: string;');
    expect(await expectSameAsWhole(cache, path, lines.join('\n'), 'one member added')).toBe('spliced');
  });
});

describe('edits on real files give the whole parse, spliced or not', () => {
  const files = [
    join(repo, 'node_modules/zod/src/v4/core/schemas.ts'),
    join(repo, 'node_modules/electron/electron.d.ts'),
    join(repo, 'node_modules/csstype/index.d.ts'), // not ASCII; interfaces of hundreds of kilobytes
    join(repo, 'node_modules/ai/dist/index.mjs'),
    // One function of 1,400 lines: loops, `switch`es and their clauses inside it.
    join(repo, 'node_modules/@ai-sdk/anthropic/src/convert-to-anthropic-messages-prompt.ts'),
    join(stdlib, '_pydecimal.py'),
    join(stdlib, 'typing.py'),
  ];
  for (const file of files) {
    it(`random one-line edits in a row: ${file.split('/').slice(-2).join('/')}`, { timeout: 180_000 }, async () => {
      const hows = await editChain(file, 7, 16);
      // The test is about the outline's identity; this only shows the incremental path is taken at all.
      expect(hows.spliced ?? 0, JSON.stringify(hows)).toBeGreaterThan(2);
    });
  }

  it('reparses inside the function of a bundle that is one big statement (lodash)', { timeout: 120_000 }, async () => {
    const cache = newCache();
    const path = join(repo, 'node_modules/lodash/lodash.js');
    const text = readFileSync(path, 'utf8');
    await cache.outline(path, Buffer.from(text), path);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('function baseClamp('));
    lines.splice(at + 1, 0, '      var added = 1;');
    expect(
      await expectSameAsWhole(cache, path, lines.join('\n'), 'a statement added in a function of the bundle'),
    ).toBe('spliced');
    lines.splice(at + 1, 1, '      function declared() {}');
    expect(await expectSameAsWhole(cache, path, lines.join('\n'), 'a function declared there')).toBe('spliced');
    lines.splice(at + 1, 1, '      }}}');
    await expectSameAsWhole(cache, path, lines.join('\n'), 'braces that break the bundle');
  });

  it('reparses one clause of a big switch in a loop in a function, and never takes a second default', async () => {
    const cache = newCache();
    const path = '/x/convert.ts';
    const clause = (k: number) =>
      `        case 'kind${k}': {\n${Array.from({ length: 12 }, (_, i) => `          total += item.size * ${k + i}; // step ${i} of clause ${k}`).join('\n')}\n          break;\n        }`;
    const clauses = Array.from({ length: 60 }, (_, k) => clause(k)).join('\n');
    let text = `export const before = 1;\nexport async function convert(items: { kind: string; size: number }[]) {\n  let total = 0;\n  outer: for (const item of items) {\n    if (item.size > 0) {\n      switch (item.kind) {\n${clauses}\n        default: {\n          continue outer;\n        }\n      }\n    }\n  }\n  return total;\n}\nexport function after() {}\n`;
    expect(text.length).toBeGreaterThan(40_000);
    await expectSameAsWhole(cache, path, text, 'start');
    text = text.replace('// step 5 of clause 30', '// step 5 of clause 30, edited');
    const edited = await cache.outline(path, Buffer.from(text), path);
    expect(edited?.outline).toEqual(await outlineOf(text, path, pool));
    expect(edited?.how).toBe('spliced');
    expect(edited?.reparsedChars).toBeLessThan(1_000);
    // A statement added to a clause, then a new clause: each reparses that clause's part only.
    for (const [from, to] of [
      ['step 3 of clause 10', 'step 3 of clause 10\n          await Promise.resolve(total);'],
      ["        case 'kind40': {", "        case 'added': total = 0;\n        case 'kind40': {"],
    ] as const) {
      text = text.replace(from, to);
      expect(await expectSameAsWhole(cache, path, text, `${from} → ${to}`)).toBe('spliced');
    }
    // A second `default` is a syntax error of the whole file: never spliced, whatever clause it lands in.
    const twice = text.replace("        case 'kind20': {", "        default:\n        case 'kind20': {");
    expect(await expectSameAsWhole(cache, path, twice, 'a second default')).not.toBe('spliced');
    expect((await outlineOf(twice, path, pool))?.problems.length).toBeGreaterThan(0);
    // A slice that closes the switch early and opens another: the clauses after it belong to the new switch.
    expect(await expectSameAsWhole(cache, path, text, 'the second default taken away')).toBe('parsed');
    const split = text.replace(
      "        case 'kind50': {",
      "        } total++; switch (item.size) {\n        case 'kind50': {",
    );
    const answer = await cache.outline(path, Buffer.from(split), path);
    expect(answer?.outline).toEqual(await outlineOf(split, path, pool));
    // Not as a slice of clauses (whose pieces would lose the clauses of the new switch): the block around is reparsed.
    expect(answer?.reparsedChars).toBeGreaterThan(30_000);
    await expectSameAsWhole(cache, path, text, 'back to one switch');
    // Edits of the default clause itself, and of code around the switch, still give the whole parse's answer.
    text = text.replace('continue outer;', 'continue outer; // skipped');
    await expectSameAsWhole(cache, path, text, 'the default clause edited');
    text = text.replace('let total = 0;', 'let total = 0; // sum');
    expect(await expectSameAsWhole(cache, path, text, 'the function body edited')).toBe('spliced');
    text = text.replace('export function after() {}', 'export function afterAll() {}');
    expect((await cache.outline(path, Buffer.from(text), path))?.outline.items.map((i) => i.name)).toEqual([
      'before',
      'convert',
      'afterAll',
    ]);
  });

  it('reparses a few members of a big interface, in text that is not ASCII, and edits of bytes that are not UTF-8', async () => {
    const cache = newCache();
    const path = '/x/wide.d.ts';
    const members = Array.from(
      { length: 600 },
      (_, k) => `  /** ${k % 3 ? 'café' : 'größe 😀'} */\n  'clé${k}': string;`,
    ).join('\n');
    let text = `export declare function été(): void;\nexport interface Grand<T = (string & {})> {\n${members}\n}\nexport type Après = 1;\n`;
    await expectSameAsWhole(cache, path, text, 'start');
    for (const [from, to] of [
      ["'clé300'", "'clè300'"],
      ["'clé301': string;", "'clé301': string;\n  method(): '😀';"],
      ['größe', 'grosse'],
      ["'clé450': string;", "'clé450': string"],
      ['function été()', 'function étéPlusLong()'],
    ] as const) {
      text = text.replace(from, to);
      expect(await expectSameAsWhole(cache, path, text, `${from} → ${to}`)).toBe('spliced');
    }
    // The last edit, before the interface, moved its members lazily; the next edit inside must see them moved, and so
    // reparse one member, not the interface.
    text = text.replace("'clé200'", "'clé200b'");
    const inside = await cache.outline(path, Buffer.from(text), path);
    expect(inside?.outline).toEqual(await outlineOf(text, path, pool));
    expect(inside?.how).toBe('spliced');
    expect(inside?.reparsedChars).toBeLessThan(1_000);
    text = text.replace("'clé302': string;", "'clé302': string; }"); // breaks the file: whole parse, with problems
    expect(await expectSameAsWhole(cache, path, text, 'broken')).toBe('parsed');
    // A byte that is not UTF-8: decoded whole (into U+FFFD), still the whole parse's answer.
    const bytes = Buffer.concat([
      Buffer.from(text.replace("'clé302': string; }", "'clé302': string;")),
      Buffer.from([0x2f, 0x2f, 0xff, 0x0a]),
    ]);
    await cache.outline(path, Buffer.from(text.replace("'clé302': string; }", "'clé302': string;")), path);
    const answer = await cache.outline(path, bytes, path);
    expect(answer?.outline).toEqual(await outlineOf(bytes.toString('utf8'), path, pool));
    expect(answer?.outline.items.map((i) => i.name)).toEqual(['étéPlusLong', 'Grand', 'Après']);
  });

  it('does not join JavaScript statements across a seam without a semicolon', async () => {
    const cache = newCache();
    const path = '/x/asi.js';
    let text = 'const a = 1;\nfunction f() {}\nconst b = g;\nconst c = 2;\n';
    await expectSameAsWhole(cache, path, text, 'start');
    text = text.replace('const b = g;', 'const b = g'); // now `b`'s statement is open at its end…
    await expectSameAsWhole(cache, path, text, 'semicolon removed');
    text = text.replace('const c = 2;', '(c)'); // …and the next line continues it: `g(c)`
    expect(await expectSameAsWhole(cache, path, text, 'call across the seam')).not.toBe('spliced');
    expect((await outlineOf(text, path, pool))?.items.map((i) => i.name)).toEqual(['a', 'f', 'b']);
  });

  it('follows Python indentation: a method moved to column 0 becomes a function', async () => {
    const cache = newCache();
    const path = '/x/m.py';
    const text = 'class A:\n    def m(self):\n        return 1\n\n    def n(self):\n        return 2\n';
    await expectSameAsWhole(cache, path, text, 'start');
    const moved = text.replace('    def n(self):\n        return 2', 'def n(self):\n    return 2');
    await expectSameAsWhole(cache, path, moved, 'dedented');
    expect((await outlineOf(moved, path, pool))?.items.map((i) => i.name)).toEqual(['A', 'n']);
  });
});

describe('a file that does not parse', () => {
  it('Python: the problems carry the lines, and the cache does not splice from a broken tree', async () => {
    const cache = newCache();
    const path = '/x/bad.py';
    const broken = 'def ok():\n    pass\n\ndef bad(:\n    pass\n\nclass C:\n    pass\n';
    const first = await cache.outline(path, Buffer.from(broken), path);
    expect(first?.outline.problems.length).toBeGreaterThan(0);
    expect(first?.outline.problems[0]?.line).toBe(4);
    const fixed = broken.replace('def bad(:', 'def bad():');
    const second = await cache.outline(path, Buffer.from(fixed), path);
    expect(second?.how).toBe('parsed');
    expect(second?.outline.problems).toEqual([]);
    expect(second?.outline.items.map((i) => i.name)).toEqual(['ok', 'bad', 'C']);
  });

  it('TypeScript: oxc says where, tree-sitter gives the partial outline', async () => {
    const outline = await outlineOf('export function a() {}\nfunction broken( {\nexport class B {}\n', '/x/b.ts', pool);
    expect(outline?.backend).toBe('tree-sitter');
    expect(outline?.problems.length).toBeGreaterThan(0);
    expect(outline?.problems[0]?.line).toBeGreaterThanOrEqual(2);
  });
});

/**
 * The worker pool gives exactly the outline a single whole-file parse gives: on real big files (cut and parsed in
 * parallel), on files where a cut lands inside a string or comment (caught, whole-file parse), and when workers die
 * or cannot start (this thread takes over).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { GrammarId } from '../../treesitter/grammars';
import { OutlinePool, SPLIT_MIN_CHARS, spawnOutlineWorker } from './outline-pool';
import { PYTHON_CLASS_HEAD, splitSource } from './split';
import { outlineOnThisThread } from './tree-outline';

const repo = resolve(__dirname, '../../../../..');
const stdlib = execFileSync('python3', ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], {
  encoding: 'utf8',
}).trim();

const pool = new OutlinePool({ size: 2 });
afterAll(() => pool.close());

async function expectSameAsOneThread(p: OutlinePool, grammar: GrammarId, text: string, label: string): Promise<void> {
  const expected = (await outlineOnThisThread(grammar, text)).items;
  expect(expected.length, label).toBeGreaterThan(3);
  expect(await p.outline(grammar, text), label).toEqual(expected);
}

describe('OutlinePool on real files', () => {
  const real: [GrammarId, string][] = [
    ['python', join(stdlib, '_pydecimal.py')],
    ['python', join(stdlib, 'typing.py')],
    ['python', join(stdlib, 'inspect.py')],
    ['typescript', join(repo, 'node_modules/zod/src/v4/core/schemas.ts')],
    ['typescript', join(repo, 'node_modules/zod/src/v4/classic/schemas.ts')],
  ];

  it('cuts each file and returns the same items, lines and signatures as one whole-file parse', async () => {
    for (const [grammar, file] of real) {
      const text = readFileSync(file, 'utf8');
      expect(text.length, file).toBeGreaterThan(SPLIT_MIN_CHARS);
      expect(splitSource(text, grammar, 2).length, `${file} is cut`).toBe(2);
      await expectSameAsOneThread(pool, grammar, text, file);
    }
    // …and the parts really went to two live workers, not to this thread's fallback.
    expect(pool.usesWorkers).toBe(true);
    expect(pool.liveWorkers).toBe(2);
  });

  it('cuts a Python module that is mostly one class inside the class, and joins items and pieces back', async () => {
    for (const name of ['subprocess.py', '_pydecimal.py', 'argparse.py']) {
      const text = readFileSync(join(stdlib, name), 'utf8');
      const parts = splitSource(text, 'python', 2);
      expect(parts.map((p) => p.text).join(''), name).toBe(text);
      expect(parts[1]?.head, `${name} is cut inside a class`).toBe(PYTHON_CLASS_HEAD);
      expect(parts[1]!.text).toMatch(/^[ \t]+(def|class|async|@)/);
      const whole = await outlineOnThisThread('python', text);
      const split = await pool.parse({ engine: 'tree-sitter', grammar: 'python' }, text);
      expect(split.items, name).toEqual(whole.items);
      expect(split.pieces, name).toEqual(whole.pieces);
      expect(split.problems).toEqual([]);
    }
  });

  it('does the same for generated Go, Rust and JavaScript, and for a four-way cut', async () => {
    const go = `package big\n\n${Array.from({ length: 3000 }, (_, i) => `type T${i} struct {\n\tA int\n}\n\nfunc (t *T${i}) M() int {\n\treturn t.A\n}\n`).join('\n')}`;
    const rust = Array.from(
      { length: 3000 },
      (_, i) =>
        `pub struct S${i} {\n    a: u32,\n}\n\nimpl S${i} {\n    pub fn get(&self) -> u32 {\n        self.a\n    }\n}\n`,
    ).join('\n');
    const js = Array.from(
      { length: 3000 },
      (_, i) => `class C${i} {\n  m() { return ${i}; }\n}\n\nfunction f${i}(a) {\n  return a + ${i};\n}\n`,
    ).join('\n');
    await expectSameAsOneThread(pool, 'go', go, 'go');
    await expectSameAsOneThread(pool, 'rust', rust, 'rust');
    await expectSameAsOneThread(pool, 'javascript', js, 'javascript');
    const four = new OutlinePool({ size: 4 });
    try {
      expect(splitSource(js, 'javascript', 4)).toHaveLength(4);
      await expectSameAsOneThread(four, 'javascript', js, 'javascript, 4 parts');
    } finally {
      await four.close();
    }
  });
});

describe('OutlinePool under load and bad input', () => {
  it('serves outlines asked for at the same time, each with its own result', async () => {
    const texts = [0, 1, 2].map((k) =>
      Array.from({ length: 3000 }, (_, i) => `def f${k}_${i}(a):\n    return a\n`).join('\n'),
    );
    const results = await Promise.all(texts.map((t) => pool.outline('python', t)));
    results.forEach((items, k) => {
      expect(items).toHaveLength(3000);
      expect(items[2999]!.name).toBe(`f${k}_2999`);
    });
  });

  it('reports a parse job that fails inside a live worker as an error, and the worker stays', async () => {
    await pool.outline('python', 'def warm(): pass\n');
    const before = pool.liveWorkers;
    await expect(pool.outline('no-such-grammar' as GrammarId, 'x')).rejects.toThrow();
    expect(pool.liveWorkers).toBe(before);
    expect(pool.usesWorkers).toBe(true);
    expect((await pool.outline('python', 'def after(): pass\n')).map((i) => i.name)).toEqual(['after']);
  });
});

describe('a cut at a wrong place', () => {
  const filler = (n: number, tag: string) =>
    Array.from(
      { length: n },
      (_, i) => `export function ${tag}${i}(a: number): number {\n  return a * ${i};\n}\n`,
    ).join('\n');
  const fakes = Array.from({ length: 2000 }, (_, i) => `\nexport function fake${i}() {}\n`).join('');

  it('inside a template literal, a block comment or a docstring is caught: the outline is the whole-file one', async () => {
    const cases: [GrammarId, string][] = [
      ['typescript', `${filler(200, 'before')}\nconst page = \`${fakes}\`;\n\n${filler(200, 'after')}`],
      ['typescript', `${filler(200, 'before')}\n/*${fakes}*/\n\n${filler(200, 'after')}`],
      [
        'python',
        `class Big:\n${Array.from({ length: 400 }, (_, i) => `    def before${i}(self):\n        pass\n`).join('\n')}\n    DOC = """${fakes.replace(/export function (\w+)\(\) \{\}/g, '    def $1(self): pass')}"""\n\n${Array.from({ length: 400 }, (_, i) => `    def after${i}(self):\n        pass\n`).join('\n')}\n\ndef t1():\n    pass\n\ndef t2():\n    pass\n\ndef t3():\n    pass\n`,
      ],
      [
        'python',
        `${Array.from({ length: 400 }, (_, i) => `def before${i}():\n    pass\n`).join('\n')}\nDOC = """${fakes.replace(/export function (\w+)\(\) \{\}/g, 'def $1(): pass')}"""\n\n${Array.from({ length: 400 }, (_, i) => `def after${i}():\n    pass\n`).join('\n')}`,
      ],
    ];
    for (const [grammar, text] of cases) {
      const parts = splitSource(text, grammar, 2);
      expect(parts.length).toBe(2);
      // The cut did land inside the string or comment: the second part starts with a fake definition.
      expect(parts[1]!.text).toMatch(/^(export function|\s*def) fake\d+/);
      const items = await pool.outline(grammar, text);
      expect(
        items.flatMap((i) => [i.name, ...i.children.map((c) => c.name)]).filter((n) => n.startsWith('fake')),
      ).toEqual([]);
      await expectSameAsOneThread(pool, grammar, text, `${grammar} cut inside a construct`);
    }
  });
});

describe('a file with errors of its own', () => {
  // Why any error, not only one near the cut: tree-sitter recovers from an unclosed template literal right at its
  // backtick and parses the rest as code, so a wrong cut's error can sit anywhere in the part.
  it('is parsed in parts, then as a whole (its errors could come from the cut), and outlines as one parse does', async () => {
    let jobs = 0;
    const counting = new OutlinePool({
      size: 2,
      spawn: () => {
        const worker = spawnOutlineWorker();
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (message: unknown) => {
          jobs++;
          post(message);
        };
        return worker;
      },
    });
    const fns = (n: number, tag: string) =>
      Array.from(
        { length: n },
        (_, i) => `export function ${tag}${i}(a: number): number {\n  return a * ${i};\n}\n`,
      ).join('\n');
    const pys = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => `def ${tag}${i}(a):\n    return a\n`).join('\n');
    const cases: [GrammarId, string][] = [
      [
        'typescript',
        `${fns(600, 'a')}\n}\n\n${fns(400, 'b')}\n\nexport function broken(a b) { return 1; }\n\n${fns(800, 'c')}`,
      ],
      ['python', `${pys(800, 'a')}\n\ndef broken(:\n    pass\n\n${pys(2500, 'c')}`],
    ];
    try {
      for (const [grammar, text] of cases) {
        expect(text.length).toBeGreaterThan(SPLIT_MIN_CHARS);
        expect((await outlineOnThisThread(grammar, text)).hasError).toBe(true);
        jobs = 0;
        await expectSameAsOneThread(counting, grammar, text, `${grammar} with an error`);
        expect(jobs, `${grammar}: two parts, then the whole file`).toBe(3);
      }
    } finally {
      await counting.close();
    }
  });
});

describe('when workers fail', () => {
  const text = Array.from({ length: 3000 }, (_, i) => `def f${i}(a):\n    return a\n`).join('\n'); // over SPLIT_MIN_CHARS: both workers run

  it('a worker that cannot start is replaced by this thread, for good', async () => {
    const broken = new OutlinePool({ size: 2, spawn: () => new Worker('process.exit(3)', { eval: true }) });
    await expectSameAsOneThread(broken, 'python', text, 'broken workers');
    expect(broken.usesWorkers).toBe(false);
    expect(broken.liveWorkers).toBe(0);
    await expectSameAsOneThread(broken, 'python', text, 'after the failure');
  });

  it('an outline in flight when the pool closes still comes back', async () => {
    const p = new OutlinePool({ size: 2 });
    const pending = p.outline('python', text);
    await p.close();
    expect(await pending).toEqual((await outlineOnThisThread('python', text)).items);
  });

  it('idle workers end on their own, and start again on the next outline', async () => {
    const p = new OutlinePool({ size: 2, idleMs: 50 });
    try {
      await p.outline('python', text);
      expect(p.liveWorkers).toBe(2);
      await new Promise((r) => setTimeout(r, 300));
      expect(p.liveWorkers).toBe(0);
      await expectSameAsOneThread(p, 'python', text, 'restarted');
      expect(p.usesWorkers).toBe(true);
    } finally {
      await p.close();
    }
  });
});

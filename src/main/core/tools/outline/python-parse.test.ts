/**
 * The outline's Python parser (`python-parse.ts`): it rejects what Python rejects, with Python's line, and accepts
 * and outlines what Python accepts. The broken set holds the kinds tree-sitter's grammar lets through (Python 2,
 * indentation, tabs); the differential tests compare with python3's own `ast` on the standard library and on mutants
 * of it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OutlineItem } from './extract';
import { parsePython } from './python-parse';

const problem = (src: string) => parsePython(src).problems[0] ?? null;

/** [source, the line Python reports, the error class]: each checked against ast by the differential test too. */
const BROKEN: [string, number, string][] = [
  ['class A:\n    def a(self):\n        pass\n  def b(self):\n        pass\n', 4, 'IndentationError'],
  ['def f():\n    x = 1\n        y = 2\n', 3, 'IndentationError'],
  ['if x:\n        a = 1\n\tb = 2\n', 3, 'TabError'],
  ['import sys\nprint "hello"\n', 2, 'SyntaxError'],
  ['exec "x = 1"\n', 1, 'SyntaxError'],
  ['x = (1,\n     2\ndef f():\n    pass\n', 1, 'SyntaxError'],
  ['def f():\n    return 1]\n', 2, 'SyntaxError'],
  ['x = "abc\n', 1, 'SyntaxError'],
  ['x = """abc\n\ndef f(): pass\n', 1, 'SyntaxError'],
  ['def f(:\n    pass\n', 1, 'SyntaxError'],
  ['def f()\n    pass\n', 1, 'SyntaxError'],
  ['x = `y`\n', 1, 'SyntaxError'],
  ['x = 0777\n', 1, 'SyntaxError'],
  ['if 1 <> 2:\n    pass\n', 1, 'SyntaxError'],
  ['None = 1\n', 1, 'SyntaxError'],
  ['x := 1\n', 1, 'SyntaxError'],
  ['f(a=1, 2)\n', 1, 'SyntaxError'],
  ['f(**a, *b)\n', 1, 'SyntaxError'],
  ['def f(a=1, b):\n    pass\n', 1, 'SyntaxError'],
  ['def f(*):\n    pass\n', 1, 'SyntaxError'],
  ['del f()\n', 1, 'SyntaxError'],
  ["x = b'é'\n", 1, 'SyntaxError'],
  ["x = 'a' b'b'\n", 1, 'SyntaxError'],
  ['x = f"{}"\n', 1, 'SyntaxError'],
  ['x = f"{a!x}"\n', 1, 'SyntaxError'],
  ['from x import a,\n', 1, 'SyntaxError'],
  ['a, b += 1\n', 1, 'SyntaxError'],
  ['[a]: int\n', 1, 'SyntaxError'],
  ['else:\n    pass\n', 1, 'SyntaxError'],
  ['try:\n    pass\nx = 1\n', 3, 'SyntaxError'],
  ['def f():\nreturn 1\n', 2, 'IndentationError'],
  ['x = 1 +\n', 1, 'SyntaxError'],
  ['x = 1_\n', 1, 'SyntaxError'],
  ['x = 1\n  y = 2\n', 2, 'IndentationError'],
  ['f(x for x in y, 1)\n', 1, 'SyntaxError'],
  ['x = $a\n', 1, 'SyntaxError'],
];

/** Valid code that stretches the grammar: each must parse, and outline as `ast` does. */
const VALID = [
  'match x:\n    case [1, *_] | {"a": 1, **rest} if y:\n        pass\n    case Point(x=0) as p:\n        pass\n',
  'match = re.match(p, s)\nmatch.group(1)\nmatch(a)\ncase = 1\n_ = 2\ntype = 3\n',
  'x = f"{a!r:>{w}} {b=} {c:{d}.{e}f} {{literal}}"\ny = rf"\\d{x}"\n',
  'with (a as b, c as d):\n    pass\nwith (a, b):\n    pass\nwith (yield):\n    pass\n',
  'async def f():\n    async with a as b:\n        async for x in y:\n            await z\n',
  '@a.b[1](2)\nclass C(D, metaclass=M):\n    x: int = 1\n    (y): int\n    def f(self, a, /, b=1, *c, d, e=2, **g) -> None: ...\n',
  'def f(a, *, b=1, c):\n    return lambda x, /, *y, z=1, **w: (yield from g)\n',
  'x = [*a, *b]; y = {**c, "d": 1}; z = a[1:2, ::3, *b]\nfor x, *y in z: pass\n() = []\n[] = ()\n',
  'try:\n    pass\nexcept* (A, B) as e:\n    pass\nelse:\n    pass\nfinally:\n    pass\n',
  'x = 1if y else 2\nz = 0o17 + 0x_ff + 0b1 + 1_000.5e-3j + 0_0 + 07.5 + .5\n',
  'if 1:\n\tx = 1\n\tif 2:\n\t\ty = 2\n',
  'class A:\n    class B:\n        class C:\n            class D:\n                def e(self): pass\n',
  '\ufeffdef bom(): pass\n',
  'x = (\n    1,  # comment\n    2,\n)\n\\\n\ny = "a" \\\n    "b"\n',
];

function keys(items: readonly OutlineItem[], prefix = ''): string[] {
  return items.flatMap((i) => [`${prefix}${i.name}@${i.line}`, ...keys(i.children, `${prefix}${i.name}.`)]);
}

describe('python-parse', () => {
  it.each(BROKEN)('rejects %j at line %i (%s)', (src, line, kind) => {
    const found = problem(src);
    expect(found?.line).toBe(line);
    expect(found?.message.startsWith(`${kind}: `)).toBe(true);
  });

  it.each(VALID)('accepts %j', (src) => {
    expect(problem(src)).toBe(null);
  });

  it('lists def, async def and class of the module and of class bodies down to MAX_DEPTH, not of other blocks', () => {
    const src =
      'def a(): pass\n@d\nasync def b(): pass\nif x:\n    def hidden(): pass\nclass C:\n    def m(self):\n        def inner(): pass\n    class N:\n        def n(self): pass\n';
    const parsed = parsePython(src);
    expect(keys(parsed.items)).toEqual(['a@1', 'b@3', 'C@6', 'C.m@7', 'C.N@9', 'C.N.n@10']);
    expect(parsed.items[1]!.signature).toBe('async def b()');
    expect(parsed.pieces!.map((p) => src.slice(p.start, p.end).split('\n')[0])).toEqual([
      'def a(): pass',
      '@d',
      'if x:',
      'class C:',
    ]);
  });
});

const hasPython = spawnSync('python3', ['--version']).status === 0;

/** Python's verdict on each source: null when ast accepts it, else [line, class], and its outline's keys. */
function astOf(sources: string[]): ({ keys: string[] } | { error: [number, string] })[] {
  const script = String.raw`
import ast, json, sys
def walk(body, depth, prefix, out):
    for s in body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.append(f"{prefix}{s.name}@{s.lineno}")
            if isinstance(s, ast.ClassDef) and depth < 3:
                walk(s.body, depth + 1, f"{prefix}{s.name}.", out)
    return out
out = []
for src in json.load(sys.stdin):
    try:
        out.append({"keys": walk(ast.parse(src).body, 0, "", [])})
    except SyntaxError as e:
        out.append({"error": [e.lineno, type(e).__name__]})
    except ValueError as e:
        out.append({"error": [0, "ValueError"]})
print(json.dumps(out))
`;
  return JSON.parse(
    execFileSync('python3', ['-c', script], { input: JSON.stringify(sources), maxBuffer: 1 << 30, encoding: 'utf8' }),
  );
}

function stdlibSources(): string[] {
  const lib = execFileSync('python3', ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], {
    encoding: 'utf8',
  }).trim();
  const out: string[] = [];
  const visit = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory() && e.name !== 'site-packages' && e.name !== 'test') visit(path);
      else if (e.isFile() && e.name.endsWith('.py')) {
        const bytes = readFileSync(path);
        const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
        if (!text.includes('\uFFFD')) out.push(text);
      }
    }
  };
  visit(lib);
  return out;
}

describe.runIf(hasPython)('python-parse against python3 ast', () => {
  it('agrees with ast on the broken set and the valid set', () => {
    const verdicts = astOf([...BROKEN.map((b) => b[0]), ...VALID]);
    BROKEN.forEach(([, line, kind], i) => expect(verdicts[i], BROKEN[i]![0]).toEqual({ error: [line, kind] }));
    VALID.forEach((src, i) => {
      const v = verdicts[BROKEN.length + i]!;
      // A newer grammar than the machine's python3 (3.12's f-strings, 3.14's except) is fine for us, not for it.
      if ('keys' in v) expect(keys(parsePython(src).items), src).toEqual(v.keys);
    });
  });

  it('agrees with ast on every stdlib module (outside test/): the verdict, the line, and the names', () => {
    const sources = stdlibSources();
    expect(sources.length).toBeGreaterThan(500);
    const verdicts = astOf(sources);
    const wrong: string[] = [];
    sources.forEach((src, i) => {
      const v = verdicts[i]!;
      const ours = parsePython(src);
      if ('error' in v) {
        if (ours.problems[0]?.line !== v.error[0])
          wrong.push(`${src.slice(0, 60)}: ast ${v.error}, ours ${ours.problems[0]?.line}`);
      } else if (ours.problems.length > 0 || keys(ours.items).join() !== v.keys.join())
        wrong.push(`${src.slice(0, 60)}: ours ${JSON.stringify(ours.problems[0] ?? 'other names')}`);
    });
    expect(wrong).toEqual([]);
  }, 120_000);

  it('agrees with ast on whether 600 mutants of stdlib modules parse (a character range cut, a token put in, a line re-indented)', () => {
    const sources = stdlibSources();
    let seed = 47;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const bits = [
      '(',
      ')',
      ':',
      '=',
      ',',
      '\n',
      '\t',
      '  ',
      'print "x"',
      'else',
      'lambda',
      '*',
      '[',
      '{',
      '"',
      '\\',
      'def',
      '->',
      ':=',
      '0777',
      'f"{',
      '}"',
      'match',
    ];
    const mutants: string[] = [];
    while (mutants.length < 600) {
      const lines = sources[Math.floor(random() * sources.length)]!.split('\n');
      const at = Math.floor(random() * lines.length);
      const line = lines[at]!;
      const r = random();
      const j = Math.floor(random() * (line.length + 1));
      if (r < 0.3) lines[at] = line.slice(0, j) + line.slice(j + 1 + Math.floor(random() * 4));
      else if (r < 0.7) lines[at] = line.slice(0, j) + bits[Math.floor(random() * bits.length)] + line.slice(j);
      else if (r < 0.85) lines[at] = line.startsWith(' ') ? line.slice(1 + Math.floor(random() * 3)) : ` ${line}`;
      else lines[at] = line.replace('    ', '\t');
      mutants.push(lines.join('\n'));
    }
    const verdicts = astOf(mutants);
    const differ = mutants.filter((src, i) => 'error' in verdicts[i]! !== parsePython(src).problems.length > 0);
    expect(differ).toEqual([]);
  }, 120_000);
});

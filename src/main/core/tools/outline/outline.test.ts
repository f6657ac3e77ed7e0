/**
 * get_ast_outline against the languages' own parsers on real files: the top-level names (and class members) must
 * equal those of Python's `ast` (stdlib modules) and of the TypeScript compiler API (this repo's sources and zod's
 * TypeScript sources). Then one sample per supported extension, the text fallbacks, and the tool's messages.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { API } from 'typescript/unstable/sync';
import {
  isClassDeclaration,
  isEnumDeclaration,
  isFunctionDeclaration,
  isInterfaceDeclaration,
  isModuleDeclaration,
  isTypeAliasDeclaration,
  isVariableStatement,
} from 'typescript/unstable/ast/is';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failed, makeWorkspace, ok, type TestWorkspace } from '../_testing/workspace';
import { getAstOutlineTool, outlineOf } from './get-ast-outline';

const repo = resolve(__dirname, '../../../../..');

describe('outline vs Python ast', () => {
  const stdlib = execFileSync('python3', ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], {
    encoding: 'utf8',
  }).trim();
  const files = [
    'argparse.py',
    'dataclasses.py',
    'textwrap.py',
    'json/decoder.py',
    'asyncio/tasks.py',
    'functools.py',
  ].map((f) => join(stdlib, f));

  it('has the same top-level definitions and class methods on real stdlib files', async () => {
    const script = [
      'import ast, json, sys',
      'out = {}',
      'for path in sys.argv[1:]:',
      '    tree = ast.parse(open(path, encoding="utf-8").read())',
      '    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)',
      '    out[path] = [[n.name, [m.name for m in n.body if isinstance(m, defs)] if isinstance(n, ast.ClassDef) else []] for n in tree.body if isinstance(n, defs)]',
      'print(json.dumps(out))',
    ].join('\n');
    const expected = JSON.parse(execFileSync('python3', ['-c', script, ...files], { encoding: 'utf8' })) as Record<
      string,
      [string, string[]][]
    >;
    for (const file of files) {
      const outline = await outlineOf(readFileSync(file, 'utf8'), '.py');
      const ours = outline!.items.map((i) => [i.name, i.kind === 'class' ? i.children.map((c) => c.name) : []]);
      expect(ours, file).toEqual(expected[file]);
      expect(expected[file]!.length, file).toBeGreaterThan(3);
    }
  });
});

describe('outline vs the TypeScript compiler', () => {
  const files = [
    'src/main/core/tools/registry.ts',
    'src/main/core/tools/outline/languages.ts',
    'src/main/core/tools/define-tool.ts',
    'src/shared/tool-names.ts',
    'node_modules/zod/src/v4/classic/schemas.ts',
    'node_modules/zod/src/v4/core/api.ts',
  ].map((f) => join(repo, f));
  let api: API;
  beforeEach(() => {
    api = new API({ cwd: repo });
  });
  afterEach(() => api.close());

  it('has the same top-level declaration names on real files', async () => {
    const snapshot = api.updateSnapshot({ openFiles: files });
    let total = 0;
    for (const file of files) {
      const sf = snapshot.getDefaultProjectForFile(file)!.program.getSourceFile(file)!;
      const expected: string[] = [];
      for (const s of sf.statements) {
        if (isVariableStatement(s)) for (const d of s.declarationList.declarations) expected.push(d.name.getText(sf));
        else if (
          isFunctionDeclaration(s) ||
          isClassDeclaration(s) ||
          isInterfaceDeclaration(s) ||
          isTypeAliasDeclaration(s) ||
          isEnumDeclaration(s) ||
          isModuleDeclaration(s)
        ) {
          if (s.name) expected.push(s.name.getText(sf).replace(/^['"]|['"]$/g, ''));
        }
      }
      const outline = await outlineOf(readFileSync(file, 'utf8'), extname(file));
      const ours = outline!.items.map((i) => i.name.replace(/^['"]|['"]$/g, ''));
      expect(ours, file).toEqual(expected);
      expect(expected.length, file).toBeGreaterThan(1);
      total += expected.length;
    }
    expect(total).toBeGreaterThan(200); // zod's big modules carry most of the weight
  });
});

describe('every listed extension', () => {
  const samples: [string, string, string[]][] = [
    ['.js', 'function f() {}\nclass A { m() {} }\nconst x = 1;\n', ['f', 'A', 'x']],
    ['.mjs', 'export function f() {}\n', ['f']],
    ['.tsx', 'export const App = () => <div/>;\ninterface P { a: string }\n', ['App', 'P']],
    ['.go', 'package main\nfunc main() {}\nfunc (r *R) M() {}\ntype S struct{}\n', ['main', 'M', 'S']],
    ['.java', 'class A { A() {} void m() {} }\ninterface I {}\n', ['A', 'I']],
    ['.c', 'struct S { int a; };\nint add(int a, int b) { return a + b; }\nint x;\n', ['S', 'add']],
    ['.h', 'int add(int a, int b);\ntypedef int myint;\n', ['add', 'myint']],
    ['.cpp', 'namespace ns { class C { void m(); }; }\nint main() { return 0; }\n', ['ns', 'main']],
    ['.cc', 'int f() { return 1; }\n', ['f']],
    ['.hpp', 'class K { public: int g(); };\n', ['K']],
    ['.lua', 'local function f() end\nfunction M.g() end\n', ['f', 'M.g']],
    ['.rb', 'module M\n  class A\n    def m; end\n  end\nend\ndef top; end\n', ['M', 'top']],
    ['.sh', 'f() { echo; }\nfunction g { echo; }\n', ['f', 'g']],
    ['.ex', 'defmodule A do\n  def f(x), do: x\nend\n', ['A']],
    ['.exs', 'defmodule T do\n  defp g(y) when y > 1, do: y\nend\n', ['T']],
    ['.json', '{"name": "x", "scripts": {"a": "b"}}', ['name', 'scripts']],
    ['.yaml', 'a: 1\nb:\n  c: 2\n', ['a', 'b']],
    ['.yml', 'jobs:\n  x: 1\n', ['jobs']],
    ['.html', '<html><body><h1>Title</h1><div id="main"></div></body></html>', ['html']],
    ['.css', 'a { color: red }\n@media (max-width: 1px) { .b {} }\n', ['a', '@media (max-width: 1px)']],
    ['.rs', 'pub struct S;\nimpl S { fn new() -> Self { S } }\nfn main() {}\n', ['S', 'S', 'main']],
    ['.kt', 'class A {\n  fun m() {}\n}\nfun top() = 1\n', ['A', 'top']],
    ['.swift', 'struct S {\n  func f() {}\n}\n', ['S']],
    ['.toml', '[package]\nname = "x"\n[[bin]]\n', ['package', 'bin']],
    ['.md', '# Title\n```\n# not a heading\n```\n## Sub\n', ['Title', 'Sub']],
    ['.sql', 'CREATE TABLE IF NOT EXISTS t (a int);\ncreate index i on t(a);\n', ['t', 'i']],
  ];

  it('outlines a sample of each: oxc for TypeScript and JavaScript, the text outline for some, tree-sitter for the rest', async () => {
    for (const [ext, text, names] of samples) {
      const outline = await outlineOf(text, ext);
      expect(
        outline?.items.map((i) => i.name),
        ext,
      ).toEqual(names);
      const backend = ['.kt', '.swift', '.toml', '.md', '.sql'].includes(ext)
        ? 'text'
        : ['.js', '.mjs', '.tsx'].includes(ext)
          ? 'oxc'
          : 'tree-sitter';
      expect(outline?.backend, ext).toBe(backend);
      expect(outline?.problems, ext).toEqual([]);
    }
  });

  it('nests members one level down', async () => {
    const outline = await outlineOf('class A:\n    def m(self):\n        def inner(): pass\n', '.py');
    expect(outline!.items[0]!.children.map((c) => c.name)).toEqual(['m']);
    expect(outline!.items[0]!.children[0]!.children).toEqual([]);
  });
});

describe('get_ast_outline tool', () => {
  let ws: TestWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('prints signatures with line ranges and no bodies', async () => {
    ws.write(
      'm.py',
      'import os\n\nclass A(B):\n    def m(self, x):\n        return secret_body\n\ndef f():\n    pass\n',
    );
    const out = await ok(getAstOutlineTool, { path: 'm.py' }, ws.ctx);
    expect(out).toBe('m.py (python, Python grammar):\nL3-5: class A(B)\n  L4-5: def m(self, x)\nL7-8: def f()');
    expect(out).not.toContain('secret_body');
  });

  it('explains unsupported extensions, missing files and files without definitions', async () => {
    ws.write('x.unknown', 'hello');
    expect(await failed(getAstOutlineTool, { path: 'x.unknown' }, ws.ctx)).toMatch(
      /No outline for \.unknown files\. Supported: .*\.py/,
    );
    expect(await failed(getAstOutlineTool, { path: 'gone.py' }, ws.ctx)).toMatch(/does not exist/);
    ws.write('empty.py', 'x = 1\n');
    expect(await ok(getAstOutlineTool, { path: 'empty.py' }, ws.ctx)).toMatch(/no top-level definitions/);
  });

  it('names the parser, and says when a file does not parse, with the lines, marking the outline partial', async () => {
    ws.write('ok.ts', 'export class A {\n  m(): void {}\n}\n');
    expect(await ok(getAstOutlineTool, { path: 'ok.ts' }, ws.ctx)).toBe(
      'ok.ts (typescript, oxc):\nL1-3: class A\n  L2: m(): void',
    );
    ws.write('bad.ts', 'export function a() {}\nfunction broken( {\n\nexport class B {}\n');
    const bad = await ok(getAstOutlineTool, { path: 'bad.ts' }, ws.ctx);
    expect(bad).toMatch(/^bad\.ts \(typescript, tree-sitter\): the file does not parse\.\n {2}line [2-4]: /);
    expect(bad).toMatch(
      /Partial outline from an error-tolerant parse: it may be wrong or incomplete from line [2-4] on\.\nL1: function a\(\)/,
    );
    ws.write('bad.py', 'def ok():\n    pass\n\ndef bad(:\n    pass\n');
    expect(await ok(getAstOutlineTool, { path: 'bad.py' }, ws.ctx)).toMatch(
      /^bad\.py \(python, tree-sitter\): the file does not parse\.\n {2}line 4: SyntaxError: invalid syntax\nPartial outline/,
    );
  });

  it('the fixture files outline as expected', async () => {
    const fixture = join(repo, 'test/fixtures/tools/sample.rs');
    expect(existsSync(fixture)).toBe(true);
    const outline = await outlineOf(readFileSync(fixture, 'utf8'), '.rs');
    expect(outline!.items.map((i) => `${i.kind} ${i.name}`)).toEqual([
      'mod config',
      'struct Server',
      'impl Server',
      'impl Display for Server',
      'trait Handler',
      'enum State',
      'fn main',
    ]);
  });
});

/**
 * The peers of the outline bench (docs/outline.md "What an outline lists" defines the names both sides list):
 * - TypeScript and JavaScript: the TypeScript compiler's `createSourceFile` (the last JavaScript TypeScript, 6.0,
 *   as bundled by `@ts-morph/common`: the `typescript` package here is 7, the native compiler, whose JS API has no
 *   per-file parse) and a walk of its AST;
 * - Python: `ast.parse` and a walk of its tree in a long-lived python3, timed inside Python (parse + walk + read).
 * Each returns the outline as a multiset of `qualified.name@line` keys, the line being the name's line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ts } from '@ts-morph/common';
import { MAX_DEPTH, type OutlineItem } from '../src/main/core/tools/outline/extract';

/** The TypeScript compiler's outline of a file, as keys. */
export function tsKeys(path: string): string[] {
  return tsOutline(path).keys;
}

/** The keys and the compiler's first syntax error's line (0: none), from one `createSourceFile`. */
export function tsOutline(path: string): { keys: string[]; errorLine: number } {
  const text = readFileSync(path, 'utf8');
  const kind = /\.(?:js|mjs|cjs|jsx)$/.test(path)
    ? ts.ScriptKind.JSX
    : /\.tsx$/.test(path)
      ? ts.ScriptKind.TSX
      : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const out: string[] = [];
  const line = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  const nameOf = (name: ts.Node) =>
    ts.isComputedPropertyName(name) ? `[${name.expression.getText(sf)}]` : name.getText(sf);
  const statements = (list: readonly ts.Statement[], depth: number, prefix: string): void => {
    for (const s of list) {
      if (
        ts.isFunctionDeclaration(s) ||
        ts.isInterfaceDeclaration(s) ||
        ts.isTypeAliasDeclaration(s) ||
        ts.isEnumDeclaration(s)
      ) {
        if (s.name) out.push(`${prefix}${s.name.text}@${line(s.name)}`);
      } else if (ts.isClassDeclaration(s)) {
        if (!s.name) continue;
        out.push(`${prefix}${s.name.text}@${line(s.name)}`);
        if (depth < MAX_DEPTH) members(s.members, `${prefix}${s.name.text}.`);
      } else if (ts.isModuleDeclaration(s)) {
        let name = s.name.getText(sf);
        let body = s.body;
        while (body && ts.isModuleDeclaration(body)) {
          name += `.${body.name.getText(sf)}`;
          body = body.body;
        }
        out.push(`${prefix}${name}@${line(s.name)}`);
        if (body && ts.isModuleBlock(body) && depth < MAX_DEPTH)
          statements(body.statements, depth + 1, `${prefix}${name}.`);
      } else if (ts.isVariableStatement(s)) {
        for (const d of s.declarationList.declarations)
          if (ts.isIdentifier(d.name)) out.push(`${prefix}${d.name.text}@${line(d.name)}`);
      }
    }
  };
  const members = (list: readonly ts.ClassElement[], prefix: string): void => {
    for (const m of list) {
      if (ts.isConstructorDeclaration(m)) {
        const keyword = m.getChildren(sf).find((c) => c.kind === ts.SyntaxKind.ConstructorKeyword);
        out.push(`${prefix}constructor@${line(keyword ?? m)}`);
      } else if (
        ts.isMethodDeclaration(m) ||
        ts.isPropertyDeclaration(m) ||
        ts.isGetAccessor(m) ||
        ts.isSetAccessor(m)
      ) {
        out.push(`${prefix}${nameOf(m.name)}@${line(m.name)}`);
      }
    }
  };
  statements(sf.statements, 0, '');
  // The parser's own diagnostics (syntax only): not in the public typings, present on every parsed source file.
  const diagnostics = (sf as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  const first = diagnostics[0];
  return { keys: out, errorLine: first ? sf.getLineAndCharacterOfPosition(first.start).line + 1 : 0 };
}

const PY_PEER = String.raw`
import ast, json, sys, time
MAX_DEPTH = int(sys.argv[1])
def walk(body, depth, prefix, out):
    for s in body:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append(f"{prefix}{s.name}@{s.lineno}")
        elif isinstance(s, ast.ClassDef):
            out.append(f"{prefix}{s.name}@{s.lineno}")
            if depth < MAX_DEPTH:
                walk(s.body, depth + 1, f"{prefix}{s.name}.", out)
    return out
for line in sys.stdin:
    path = line.rstrip("\n")
    t = time.perf_counter()
    try:
        with open(path, encoding="utf-8-sig") as f:  # as Python reads a source file: a BOM is no character
            keys = walk(ast.parse(f.read()).body, 0, "", [])
    except SyntaxError as e:
        print(json.dumps({"error": {"line": e.lineno or 0, "message": f"{type(e).__name__}: {e.msg}"}}), flush=True)
        continue
    except (ValueError, UnicodeDecodeError) as e:
        print(json.dumps({"error": {"line": 0, "message": f"{type(e).__name__}: {e}"}}), flush=True)
        continue
    ms = (time.perf_counter() - t) * 1000
    print(json.dumps({"ms": ms, "keys": keys}), flush=True)
`;

/** What `ast.parse` made of a file: its outline and the time (read + parse + walk), or where it rejected it. */
export type PythonAnswer = { ms: number; keys: string[] } | { error: { line: number; message: string } };

/**
 * A python3 that parses the files it is sent, one at a time, and says how long `ast` took (timed inside Python, per
 * file: the read, `ast.parse` and the walk; not the interpreter's start nor this pipe).
 */
export class PythonPeer {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly replies: AsyncIterator<string>;

  constructor() {
    this.child = spawn('python3', ['-c', PY_PEER, String(MAX_DEPTH)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.replies = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  async answer(path: string): Promise<PythonAnswer> {
    this.child.stdin.write(`${path}\n`);
    const next = await this.replies.next();
    if (next.done) throw new Error('the python3 peer ended');
    return JSON.parse(next.value) as PythonAnswer;
  }

  /** The outline of a file `ast` accepts (throws on one it rejects). */
  async outline(path: string): Promise<{ ms: number; keys: string[] }> {
    const a = await this.answer(path);
    if ('error' in a) throw new Error(`ast.parse rejects ${path}: line ${a.error.line}: ${a.error.message}`);
    return a;
  }

  close(): void {
    this.child.stdin.end();
  }
}

/** Our outline as the same keys. */
export function ourKeys(items: readonly OutlineItem[], prefix = ''): string[] {
  return items.flatMap((i) => [`${prefix}${i.name}@${i.line}`, ...ourKeys(i.children, `${prefix}${i.name}.`)]);
}

/** Precision and recall of ours against the peer's, as multisets (an overload or a duplicate counts each time). */
export function precisionRecall(
  ours: readonly string[],
  peer: readonly string[],
): { precision: number; recall: number; missing: string[]; extra: string[] } {
  const left = new Map<string, number>();
  for (const k of peer) left.set(k, (left.get(k) ?? 0) + 1);
  const extra: string[] = [];
  let hits = 0;
  for (const k of ours) {
    const n = left.get(k);
    if (n) {
      hits++;
      left.set(k, n - 1);
    } else extra.push(k);
  }
  const missing = [...left].flatMap(([k, n]) => Array<string>(n).fill(k));
  return {
    precision: ours.length ? hits / ours.length : 1,
    recall: peer.length ? hits / peer.length : 1,
    missing,
    extra,
  };
}

/**
 * The outline bench's rows on files that do not parse (docs/outline.md "A file that does not parse"): every file the
 * language's own parser rejects must say so, with the line, and no file it accepts may be said not to parse.
 * - Python, every stdlib `.py` file: our verdict and line against `ast.parse` (text read as UTF-8, as the tool reads it).
 * - Python, a broken set made by rule: each kind of breakage (`BREAKAGES`) put into every large-half corpus file at
 *   its middle method; `ast.parse` must reject each (a variant it accepts is dropped and counted), and we must flag it.
 * - TypeScript and JavaScript: the corpus files the compiler's parser rejects, and zod's core schemas with a broken
 *   line.
 * - C with its common macros: `tools-outline-c.ts`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outlineOf } from '../src/main/core/tools/outline/get-ast-outline';
import type { BenchRow } from './table';
import { NODE_MODULES, pythonCorpus, stdlibFiles } from './tools-outline-corpus';
import type { PythonPeer } from './tools-outline-peers';
import { ms } from './table';
import { cRow } from './tools-outline-c';

export interface Rejected {
  file: string;
  /** The peer's line (0: it did not say). */
  peerLine: number;
  /** Our first problem's line; 0 when we said the file parses. */
  ourLine: number;
  python: boolean;
}

type Call = (name: string) => Promise<{ took: number; result: string }>;

interface Options {
  root: string;
  call: Call;
  python: PythonPeer;
  rejected: Rejected[];
  quick: boolean;
}

/** The first line our answer names as a problem (0: the answer says the file parses). */
const lineSaid = (result: string) =>
  /does not parse/.test(result) ? Number(/^ {2}line (\d+):/m.exec(result)?.[1] ?? -1) : 0;

export async function flagRows(o: Options): Promise<BenchRow[]> {
  return [
    await stdlibRow(o),
    await brokenPythonRow(o),
    scriptRejectedRow(o.rejected.filter((r) => !r.python)),
    await brokenZodRow(o.root, o.call),
    await cRow(o.root, o.quick),
  ];
}

/** Every stdlib `.py`: does our flag agree with `ast.parse`, and on the line? */
async function stdlibRow({ python, quick }: Options): Promise<BenchRow> {
  const all = stdlibFiles();
  const files = quick ? all.filter((_, i) => i % 50 === 0) : all;
  let rejects = 0;
  let sameLine = 0;
  let unreadable = 0;
  const disagree: string[] = [];
  let ours = 0;
  for (const path of files) {
    const answer = await python.answer(path);
    if ('error' in answer && answer.error.line === 0) {
      unreadable++; // not UTF-8 text, or a NUL byte: the tool reads neither as Python
      continue;
    }
    const t = performance.now();
    const outline = await outlineOf(readFileSync(path, 'utf8'), path);
    ours += performance.now() - t;
    const line = outline?.problems.length ? Math.min(...outline.problems.map((p) => p.line)) : 0;
    if ('error' in answer) {
      rejects++;
      if (line === answer.error.line) sameLine++;
      else if (line === 0) disagree.push(`${path} (ast: line ${answer.error.line}; ours: parses)`);
    } else if (line !== 0) disagree.push(`${path} (ast: parses; ours: line ${line})`);
  }
  return {
    name:
      `get_ast_outline "does not parse" flag on every stdlib .py (${files.length} files${quick ? ', quick: every 50th' : ''}; ` +
      `${unreadable} not UTF-8 text left out) vs ast.parse: ast rejects ${rejects}, we flag ${rejects - disagree.filter((d) => d.includes('ours: parses')).length} of them ` +
      `(${sameLine} on ast's line); files ast accepts that we flag: ${disagree.filter((d) => d.includes('ast: parses')).length}` +
      (disagree.length ? ` — DIFFERS: ${disagree.slice(0, 3).join('; ')}` : ''),
    ours: `${disagree.length === 0 ? 'agrees on every file' : `${disagree.length} disagree`} (our parse + outline ${ms(ours)} in all)`,
    peer: `ast.parse`,
    target: 'same verdict on every file',
    pass: disagree.length === 0,
    ...(disagree.length ? { wrong: `the flag differs from ast.parse on ${disagree.length} file(s)` } : {}),
  };
}

/** One kind of breakage, put at a method line (its index in `lines`); null when it does not apply there. */
type Breakage = (lines: string[], at: number, indent: string) => string[] | null;

const insert =
  (text: string): Breakage =>
  (lines, at, indent) => [...lines.slice(0, at), `${indent}${text}`, ...lines.slice(at)];

/** Kinds tree-sitter's grammar lets through (the first five) and common slips; each rejected by every Python 3. */
export const BREAKAGES: Readonly<Record<string, Breakage>> = {
  'Python 2 print': insert('print "checkpoint"'),
  'Python 2 exec': insert('exec "x = 1"'),
  'unexpected indent': insert(`${' '.repeat(40)}x = 1`),
  'bad dedent (a method 2 columns left)': (lines, at, indent) =>
    indent.length < 4 || indent.includes('\t')
      ? null
      : [...lines.slice(0, at), lines[at]!.slice(2), ...lines.slice(at + 1)],
  'TabError (a method indented with a tab)': (lines, at, indent) =>
    indent.includes('\t') ? null : [...lines.slice(0, at), `\t${lines[at]!.trimStart()}`, ...lines.slice(at + 1)],
  'unclosed bracket': insert('x = (1,'),
  'unterminated string': insert('x = "abc'),
  'missing colon': (lines, at) =>
    /\):\s*$/.test(lines[at]!)
      ? [...lines.slice(0, at), lines[at]!.replace(/\):\s*$/, ')'), ...lines.slice(at + 1)]
      : null,
  'Python 2 backtick': insert('x = `y`'),
  'Python 2 octal': insert('x = 0777'),
  'Python 2 <>': insert('x = 1 <> 2'),
  'assignment to a keyword': insert('None = 1'),
  'walrus as a statement': insert('x := 1'),
  'positional after keyword argument': insert('f(a=1, 2)'),
  'else without if': insert('else: pass'),
};

/** The middle method of a file (a `def` indented inside a class, not decorated, not first in its class). */
function middleMethod(lines: string[]): number {
  const methods: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const m = /^([ \t]+)def \w+\(.*\):\s*$/.exec(lines[i]!);
    if (!m) continue;
    const prev = lines
      .slice(0, i)
      .reverse()
      .find((l) => l.trim() !== '');
    if (prev && !prev.trimStart().startsWith('@') && !/^\s*class\b/.test(prev)) methods.push(i);
  }
  return methods[Math.floor(methods.length / 2)] ?? -1;
}

async function brokenPythonRow({ root, call, python, quick }: Options): Promise<BenchRow> {
  const corpus = pythonCorpus(quick ? 2 : undefined);
  const files = corpus?.large ?? [];
  let made = 0;
  let accepted = 0;
  let flagged = 0;
  let sameLine = 0;
  const missed: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file.path, 'utf8').split('\n');
    const at = middleMethod(lines);
    if (at < 0) continue;
    const indent = /^[ \t]*/.exec(lines[at]!)![0];
    for (const [kind, breakIt] of Object.entries(BREAKAGES)) {
      const broken = breakIt(lines, at, indent);
      if (!broken) continue;
      const name = `broken-${made}.py`;
      writeFileSync(join(root, name), broken.join('\n'));
      const answer = await python.answer(join(root, name));
      if (!('error' in answer)) {
        accepted++;
        continue;
      }
      made++;
      const line = lineSaid((await call(name)).result);
      if (line > 0) flagged++;
      else missed.push(`${kind} in ${file.short}`);
      if (line === answer.error.line) sameLine++;
    }
  }
  return {
    name:
      `get_ast_outline on broken Python: ${Object.keys(BREAKAGES).length} kinds (Python 2 print and exec, unexpected indent, bad dedent, TabError, unclosed bracket, …) ` +
      `put at the middle method of each of the ${files.length} large-half corpus files: ${made} variants ast.parse rejects` +
      `${accepted ? ` (${accepted} it accepts left out)` : ''}; flagged ${flagged}, on ast's line ${sameLine}` +
      (missed.length ? ` — NOT FLAGGED: ${missed.slice(0, 4).join('; ')}` : ''),
    ours: `${flagged} of ${made} flagged`,
    peer: 'ast.parse rejects all',
    target: 'every one flagged, with the line',
    pass: made > 0 && flagged === made,
    ...(missed.length ? { wrong: `${missed.length} broken file(s) not flagged` } : {}),
  };
}

function scriptRejectedRow(rejected: Rejected[]): BenchRow {
  const peerRejects = rejected.filter((r) => r.peerLine > 0);
  const unflagged = peerRejects.filter((r) => r.ourLine === 0);
  const extra = rejected.filter((r) => r.peerLine === 0);
  return {
    name:
      `get_ast_outline "does not parse" flag on the TypeScript/JavaScript corpus sample: files the compiler's parser rejects ${peerRejects.length}` +
      `${peerRejects.length ? ` (${peerRejects.map((r) => `${r.file} line ${r.peerLine}, ours ${r.ourLine || 'parses'}`).join('; ')})` : ''}, ` +
      `we flag ${peerRejects.length - unflagged.length}; files it accepts that we flag: ${extra.length}` +
      `${extra.length ? ` (${extra.map((r) => `${r.file} line ${r.ourLine}`).join('; ')})` : ''}`,
    ours: `${peerRejects.length - unflagged.length} of ${peerRejects.length} flagged, ${extra.length} flagged wrongly`,
    peer: 'tsc createSourceFile parse diagnostics',
    target: 'same verdict',
    pass: unflagged.length === 0 && extra.length === 0,
  };
}

/** zod's core schemas with a broken line put in the middle: the answer must say it does not parse, and where. */
async function brokenZodRow(root: string, call: Call): Promise<BenchRow> {
  const source = join(NODE_MODULES, 'zod/src/v4/core/schemas.ts');
  if (!existsSync(source))
    return {
      name: 'get_ast_outline on a TypeScript file that does not parse: no file to break',
      ours: '—',
      peer: '—',
      target: 'says so',
      pass: false,
    };
  const lines = readFileSync(source, 'utf8').split('\n');
  const at = Math.floor(lines.length / 2);
  lines.splice(at, 0, 'function broken( {');
  writeFileSync(join(root, 'broken.ts'), lines.join('\n'));
  const { took, result } = await call('broken.ts');
  // The parser names the line where it noticed the error: the broken line or one of the next few.
  const line = lineSaid(result);
  const says = line >= at + 1 && line <= at + 5 && /Partial outline/.test(result);
  return {
    name: `get_ast_outline on a TypeScript file that does not parse (zod core/schemas.ts, line ${at + 1} broken): says so, with the line, outline marked partial`,
    ours: `${says ? `says so (line ${line})` : 'DOES NOT SAY SO'}, ${ms(took)}`,
    peer: '—',
    target: 'says so',
    pass: says,
  };
}

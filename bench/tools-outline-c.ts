/**
 * The outline of C with its macros (docs/outline.md "A file that does not parse"): tree-sitter cannot expand
 * `SQLITE_API`, `__THROW` or `ZEXPORT`, so the outline is read with such macros left out (`c-macros.ts`) and marked
 * partial. Recall of the functions a file declares or defines, against the compiler: gcc's `-aux-info` list for a
 * translation unit that includes the file (the functions gcc saw declared or defined on the file's own lines).
 * Corpus by rule: every `.h` directly in /usr/include over 200 lines, and every `.c`/`.h` in node_modules over
 * 1,000 lines that is not a generated tree-sitter `parser.c` (tables, a handful of functions) and is not over the
 * tool's 8 MB cap (sqlite3.c is 9.5 MB: the tool reads its first 8 MB only, which no peer can match).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { outlineOf } from '../src/main/core/tools/outline/get-ast-outline';
import { MAX_OUTLINE_BYTES } from '../src/main/core/tools/outline/get-ast-outline';
import type { OutlineItem } from '../src/main/core/tools/outline/extract';
import { median, type BenchRow } from './table';
import { filesUnder, lineCount, NODE_MODULES } from './tools-outline-corpus';

function cCorpus(): string[] {
  const include = readdirSync('/usr/include', { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.h'))
    .map((e) => join('/usr/include', e.name));
  const modules = filesUnder(NODE_MODULES, (n) => /\.[ch]$/.test(n) && n !== 'parser.c');
  return [
    ...include.filter((p) => lineCount(readFileSync(p)) > 200),
    ...modules.filter((p) => statSync(p).size <= MAX_OUTLINE_BYTES && lineCount(readFileSync(p)) > 1_000),
  ];
}

/** The functions gcc saw declared or defined on `path`'s own lines; null when gcc is missing or fails. */
function gccFunctions(path: string, dir: string): string[] | null {
  const unit = join(dir, 'unit.c');
  const aux = join(dir, 'unit.aux');
  writeFileSync(unit, `#include "${path}"\n`);
  try {
    execFileSync('gcc', ['-fsyntax-only', '-w', '-aux-info', aux, unit], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const out: string[] = [];
  for (const line of readFileSync(aux, 'utf8').split('\n')) {
    const m = /^\/\* (.*?):\d+:\w+ \*\/ .*?(\w+) \(/.exec(line);
    if (m && m[1] === path) out.push(m[2]!);
  }
  return out;
}

const names = (items: readonly OutlineItem[], into = new Set<string>()): Set<string> => {
  for (const i of items) {
    into.add(i.name);
    names(i.children, into);
  }
  return into;
};

export async function cRow(dir: string, quick: boolean): Promise<BenchRow> {
  const all = cCorpus();
  const files = quick ? all.slice(0, 3) : all;
  const recalls: { file: string; recall: number; names: number }[] = [];
  let none = 0;
  let failed = 0;
  let partial = 0;
  for (const path of files) {
    const peer = gccFunctions(path, dir);
    if (peer === null) {
      failed++;
      continue;
    }
    if (peer.length === 0) {
      none++;
      continue;
    }
    const outline = await outlineOf(readFileSync(path, 'utf8'), path);
    if (outline?.problems.length) partial++;
    const ours = names(outline?.items ?? []);
    recalls.push({ file: path, recall: peer.filter((n) => ours.has(n)).length / peer.length, names: peer.length });
  }
  const total = recalls.reduce((n, r) => n + r.names, 0);
  const pooled = recalls.reduce((n, r) => n + r.recall * r.names, 0) / total;
  const low = recalls.filter((r) => r.recall < 0.95).sort((a, b) => a.recall - b.recall);
  const short = (p: string) => (p.startsWith(NODE_MODULES) ? relative(NODE_MODULES, p) : p);
  return {
    name:
      `get_ast_outline on C with its macros (${files.length} headers and sources by rule: /usr/include/*.h over 200 lines, node_modules .c/.h over 1,000; ` +
      `${none} declaring no function left out${failed ? `, ${failed} gcc could not compile left out` : ''}): recall of the ${total.toLocaleString('en')} functions gcc -aux-info lists, ` +
      `pooled; ${recalls.length} files, median ${median(recalls.map((r) => r.recall)).toFixed(3)}, ${partial} marked partial` +
      (low.length ? `; below 0.95: ${low.map((r) => `${short(r.file)} ${r.recall.toFixed(2)}`).join(', ')}` : ''),
    ours: `recall ${pooled.toFixed(3)}`,
    peer: 'gcc -aux-info',
    target: 'recall ≥ 0.95',
    pass: pooled >= 0.95,
  };
}

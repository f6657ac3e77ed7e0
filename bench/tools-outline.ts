/**
 * `get_ast_outline` on real files (docs/outline.md; docs/architecture.md "Performance targets"): large TypeScript,
 * `.d.ts` and JavaScript from this checkout's node_modules, and large modules of the Python standard library
 * (found through `sysconfig`, not assumed).
 * - Identity: per file, our outline against the language's own parser (`tools-outline-peers.ts`) as multisets of
 *   `qualified.name@line`; precision and recall ≥ 0.99.
 * - Time, cold: the tool's whole call (guard, read, parse in the worker pool, outline, format) with the outline cache
 *   emptied first, against the peer's read + parse + walk (TypeScript's `createSourceFile` in this process; Python's
 *   `ast.parse` timed inside python3), the two alternating run by run. Target: the median over the set of the
 *   per-file ratios ≤ 1.0.
 * - Warm: the same file again, unchanged (< 2 ms), and after a one-line edit (< 10 ms): the middle definition
 *   renamed, or a comment line put in the middle of the file; each edited outline is checked against a whole parse.
 * - A file that does not parse says so, with the line.
 * The machine is shared with other work: compare ratios, not absolute figures.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { formatOutline, getAstOutlineTool, outlineOf } from '../src/main/core/tools/outline/get-ast-outline';
import type { OutlineItem } from '../src/main/core/tools/outline/extract';
import { outlinePool } from '../src/main/core/tools/outline/outline-pool';
import { outlineCache } from '../src/main/core/tools/outline/outline-service';
import type { ToolRunContext } from '../src/main/core/tools/tool';
import { median, ms, type BenchOptions, type BenchRow } from './table';
import { ourKeys, precisionRecall, PythonPeer, tsKeys } from './tools-outline-peers';

const NODE_MODULES = resolve(import.meta.dirname, '..', 'node_modules');
const SCRIPTS = [
  '@typescript/typescript-linux-x64/lib/lib.dom.d.ts',
  '@typescript/typescript-linux-x64/lib/lib.es5.d.ts',
  'electron/electron.d.ts',
  'csstype/index.d.ts',
  '@types/node/fs.d.ts',
  'ai/dist/index.d.ts',
  'zod/src/v4/core/schemas.ts',
  'zod/src/v3/types.ts',
  'zod/src/v4/classic/schemas.ts',
  'ai/dist/index.mjs',
  'pdfjs-dist/build/pdf.mjs',
  'react-dom/cjs/react-dom-client.development.js',
  'lodash/lodash.js',
];
const PYTHON = [
  '_pydecimal.py',
  'turtle.py',
  'inspect.py',
  'typing.py',
  'tarfile.py',
  'argparse.py',
  'subprocess.py',
  'enum.py',
  'tkinter/__init__.py',
  'email/_header_value_parser.py',
];

interface BenchFile {
  path: string;
  short: string;
  lines: number;
  python: boolean;
}

function stdlib(): string {
  try {
    return execFileSync('python3', ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return '';
  }
}

function benchFiles(): BenchFile[] {
  const lib = stdlib();
  const found = [
    ...SCRIPTS.map((f) => ({ path: join(NODE_MODULES, f), python: false })),
    ...(lib ? PYTHON.map((f) => ({ path: join(lib, f), python: true })) : []),
  ];
  return found
    .filter((f) => existsSync(f.path))
    .map((f) => ({
      ...f,
      short: f.path.startsWith(NODE_MODULES)
        ? f.path.slice(NODE_MODULES.length + 1)
        : `stdlib/${f.path.slice(lib.length + 1)}`,
      lines: readFileSync(f.path, 'utf8').split('\n').length,
    }));
}

const fmtRatio = (r: number) => r.toFixed(2);

/** `--quick`: the first TypeScript-family file and the first Python file, 1 cold and 2 warm calls each. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const RUNS = quick ? 1 : 5;
  const WARM_RUNS = quick ? 2 : 10;
  const root = mkdtempSync(join(tmpdir(), 'skald-bench-outline-'));
  const ctx: ToolRunContext = {
    workingDir: root,
    workspaceDir: root,
    signal: new AbortController().signal,
    log: () => undefined,
  };
  const python = new PythonPeer();
  const rows: BenchRow[] = [];
  const call = async (name: string): Promise<{ took: number; result: string }> => {
    const t = performance.now();
    const outcome = await getAstOutlineTool.executeAsync({ path: name }, ctx);
    const took = performance.now() - t;
    if (outcome.kind !== 'completed') throw new Error(`get_ast_outline ${name}: ${JSON.stringify(outcome)}`);
    return { took, result: outcome.result };
  };
  try {
    const all = benchFiles();
    const files = quick ? [all.find((f) => !f.python), all.find((f) => f.python)].filter((f) => f !== undefined) : all;
    const ratios = { script: [] as number[], python: [] as number[] };
    const unchanged: { file: string; ms: number }[] = [];
    const edits: Record<'rename' | 'comment', { file: string; ms: number; same: boolean }[]> = {
      rename: [],
      comment: [],
    };
    for (const file of files) {
      const name = basename(file.path);
      copyFileSync(file.path, join(root, name));
      // Identity, on what the tool itself computes.
      const ours = await outlineOf(readFileSync(file.path, 'utf8'), file.path);
      const peerKeys = file.python ? (await python.outline(file.path)).keys : tsKeys(file.path);
      const pr = precisionRecall(ourKeys(ours?.items ?? []), peerKeys);
      // Cold time: cache emptied before each call (outside the timer); ours and the peer alternate.
      outlineCache().clear();
      await call(name); // warm-up of both sides (workers, grammars, JIT)
      if (!file.python) tsKeys(file.path);
      const oursMs: number[] = [];
      const peerMs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        outlineCache().clear();
        oursMs.push((await call(name)).took);
        if (file.python) peerMs.push((await python.outline(file.path)).ms);
        else {
          const t = performance.now();
          tsKeys(file.path);
          peerMs.push(performance.now() - t);
        }
      }
      const ratio = median(oursMs) / median(peerMs);
      (file.python ? ratios.python : ratios.script).push(ratio);
      const ok = pr.precision >= 0.99 && pr.recall >= 0.99 && (ours?.problems.length ?? 1) === 0;
      const peerName = file.python ? 'ast.parse' : 'tsc createSourceFile';
      rows.push({
        name: `get_ast_outline ${file.short} (${file.lines.toLocaleString('en')} lines, ${ours?.backend ?? 'none'}), cold, vs ${peerName} + walk: ${pr.precision.toFixed(3)} precision, ${pr.recall.toFixed(3)} recall of ${peerKeys.length.toLocaleString('en')} names${ok ? '' : ` — DIFFERS: missing ${pr.missing.slice(0, 3).join(', ')}; extra ${pr.extra.slice(0, 3).join(', ')}`}`,
        ours: ms(median(oursMs)),
        peer: `${peerName} ${ms(median(peerMs))}`,
        ratio,
        target: 'P, R ≥ 0.99 (time: median row)',
        pass: ok,
      });
      // Unchanged: the second call of the same content.
      await call(name);
      const again: number[] = [];
      for (let i = 0; i < WARM_RUNS; i++) again.push((await call(name)).took);
      unchanged.push({ file: file.short, ms: median(again) });
      // One-line edits, each checked against a whole parse of the edited text.
      for (const kind of ['rename', 'comment'] as const) {
        const base = readFileSync(file.path, 'utf8');
        writeFileSync(join(root, name), base);
        await call(name);
        const times: number[] = [];
        let same = true;
        for (let i = 0; i < WARM_RUNS; i++) {
          const text =
            kind === 'rename' ? renameMiddle(base, ours?.items ?? [], i) : commentMiddle(base, file.python, i);
          writeFileSync(join(root, name), text);
          const { took, result } = await call(name);
          times.push(took);
          if (i === 0 || i === WARM_RUNS - 1) {
            const whole = await outlineOf(text, file.path);
            const items = whole?.items ?? [];
            same &&=
              items.length === 0
                ? result.endsWith('no top-level definitions found.')
                : result.endsWith(`:\n${formatOutline(items).join('\n')}`);
          }
        }
        edits[kind].push({ file: file.short, ms: median(times), same });
      }
    }
    const medianRow = (label: string, list: number[], peer: string): BenchRow => ({
      name: `get_ast_outline cold, ${label}: median over ${list.length} real files of (ours / ${peer}) (per file above; max ${fmtRatio(Math.max(...list))})`,
      ours: `median ratio ${fmtRatio(median(list))}`,
      peer: `${peer} = 1.00`,
      ratio: median(list),
      target: '≤ 1.0×',
      pass: median(list) <= 1,
    });
    if (ratios.script.length)
      rows.push(medianRow('TypeScript / .d.ts / JavaScript', ratios.script, 'tsc createSourceFile + walk'));
    if (ratios.python.length) rows.push(medianRow('Python', ratios.python, 'ast.parse + walk'));
    const worst = (list: { file: string; ms: number }[]) => list.reduce((a, b) => (b.ms > a.ms ? b : a));
    const w = worst(unchanged);
    rows.push({
      name: `get_ast_outline again, file unchanged (its stamp: inode, size, change times), ${unchanged.length} files: median; worst ${w.file}`,
      ours: `${ms(median(unchanged.map((u) => u.ms)))} (worst ${ms(w.ms)})`,
      peer: '< 2 ms',
      target: 'every file < 2 ms',
      pass: w.ms < 2,
    });
    for (const kind of ['rename', 'comment'] as const) {
      const list = edits[kind];
      const we = worst(list);
      const wrong = list.filter((e) => !e.same).map((e) => e.file);
      const what = kind === 'rename' ? 'the middle definition renamed' : 'a comment line put in the middle';
      rows.push({
        name: `get_ast_outline after a one-line edit (${what}), ${list.length} files: median; worst ${we.file}${wrong.length ? ` — DIFFERS from a whole parse: ${wrong.join(', ')}` : ''}`,
        ours: `${ms(median(list.map((e) => e.ms)))} (worst ${ms(we.ms)})`,
        peer: '< 10 ms',
        target: 'every file < 10 ms, same as a whole parse',
        pass: we.ms < 10 && wrong.length === 0,
      });
    }
    rows.push(await brokenFileRow(root, call));
  } finally {
    python.close();
    await outlinePool().close();
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

/** The middle definition's name, changed on its own line (a different name on each call). */
function renameMiddle(text: string, items: readonly OutlineItem[], k: number): string {
  const flat = items.flatMap(function all(i: OutlineItem): OutlineItem[] {
    return [i, ...i.children.flatMap(all)];
  });
  const item = [...flat].sort((a, b) => a.line - b.line)[Math.floor(flat.length / 2)];
  const lines = text.split('\n');
  if (!item || !/^[\w$]+$/.test(item.name)) return commentMiddle(text, false, k);
  const at = item.line - 1;
  lines[at] = lines[at]!.replace(new RegExp(`\\b${item.name.replace(/\$/g, '\\$')}\\b`), `${item.name}_edited${k}`);
  return lines.join('\n');
}

/** A comment line put after the file's middle line. */
function commentMiddle(text: string, python: boolean, k: number): string {
  const lines = text.split('\n');
  lines.splice(Math.floor(lines.length / 2), 0, `${python ? '#' : '//'} edited ${k}`);
  return lines.join('\n');
}

/** zod's core schemas with a broken line put in the middle: the answer must say it does not parse, and where. */
async function brokenFileRow(
  root: string,
  call: (name: string) => Promise<{ took: number; result: string }>,
): Promise<BenchRow> {
  const source = join(NODE_MODULES, 'zod/src/v4/core/schemas.ts');
  if (!existsSync(source) || statSync(source).size === 0)
    return {
      name: 'get_ast_outline on a file that does not parse: no file to break',
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
  const lineSaid = Number(/^ {2}line (\d+):/m.exec(result)?.[1] ?? 0);
  const says =
    /does not parse/.test(result) && lineSaid >= at + 1 && lineSaid <= at + 5 && /Partial outline/.test(result);
  return {
    name: `get_ast_outline on a file that does not parse (zod core/schemas.ts, line ${at + 1} broken): says so, with the line, outline marked partial`,
    ours: `${says ? `says so (line ${lineSaid})` : 'DOES NOT SAY SO'}, ${ms(took)}`,
    peer: '—',
    target: 'says so',
    pass: says,
  };
}

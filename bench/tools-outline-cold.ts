/**
 * The outline tool's cold starts, on the corpus file nearest 5,000 lines in each language (SPEC §6: < 100 ms):
 * - in a fresh process: its first call, timed from its start to its answer (the process's start and module loading
 *   are not in it: the core's start rows time those);
 * - after idle: in a process that made one call, the first call once the worker pool has ended its workers, as its
 *   idle timer does after 30 s (`outlinePool().close()` is that timer's own call), the cache emptied.
 * Both in `node` running the tool bundled as the app is (esbuild, packages external, the outline worker's entry
 * beside it, as electron-vite lays out `out/main`): from sources, a worker would start through tsx's loader, which
 * the app never does. Each against the same file's cold call in this warm process (cache emptied), for scale.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { bundleChild } from './bundle-child';
import { outlineCache } from '../src/main/core/tools/outline/outline-service';
import { median, ms, type BenchRow } from './table';
import { type CorpusFile, nearest, pythonCorpus, scriptCorpus } from './tools-outline-corpus';

type Call = (name: string) => Promise<{ took: number; result: string }>;

const OUT = join(import.meta.dirname, '..', 'out', 'bench-children');
const LIMIT_MS = 100;

async function bundle(): Promise<string> {
  const child = await bundleChild(join(import.meta.dirname, 'tools-outline-child.ts'));
  // The outline worker's entry beside the child, as electron-vite lays out `out/main`: the child's pool starts it there.
  await bundleChild(
    join(import.meta.dirname, '..', 'src/main/core/tools/outline/outline-worker.ts'),
    join(OUT, 'outline-worker.js'),
  );
  return child;
}

function inChild(
  script: string,
  root: string,
  name: string,
  mode: 'fresh' | 'idle',
): Promise<{ ms: number; cpu: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, root, name, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as { ms: number; cpu: number });
      } catch {
        reject(new Error(`the outline child ended (code ${code}) without an answer: ${out}`));
      }
    });
  });
}

/** For scale beside a Python row: a fresh python3's first read + `ast.parse` of the file, timed inside Python. */
function freshPython(path: string): number | null {
  try {
    const script =
      'import ast, sys, time\nt = time.perf_counter()\nast.parse(open(sys.argv[1], encoding="utf-8-sig").read())\nprint((time.perf_counter() - t) * 1000)';
    return Number(execFileSync('python3', ['-c', script, path], { encoding: 'utf8' }).trim());
  } catch {
    return null;
  }
}

export async function coldStartRows({
  root,
  call,
  quick,
}: {
  root: string;
  call: Call;
  quick: boolean;
}): Promise<BenchRow[]> {
  const runs = quick ? 1 : 5;
  const script = await bundle();
  const rows: BenchRow[] = [];
  const picks: [string, CorpusFile | undefined][] = [
    ['Python', nearest(pythonCorpus()?.files ?? [], 5_000)],
    ['TypeScript/JavaScript', nearest(scriptCorpus().files, 5_000)],
  ];
  for (const [label, file] of picks) {
    if (!file) continue;
    const name = `cold-${basename(file.path)}`;
    copyFileSync(file.path, join(root, name));
    const warm: number[] = [];
    const idle: { ms: number; cpu: number }[] = [];
    const spawned: { ms: number; cpu: number }[] = [];
    const python: number[] = [];
    await call(name);
    for (let i = 0; i < runs; i++) {
      outlineCache().clear();
      warm.push((await call(name)).took);
      idle.push(await inChild(script, root, name, 'idle'));
      spawned.push(await inChild(script, root, name, 'fresh'));
      const p = label === 'Python' ? freshPython(file.path) : null;
      if (p !== null) python.push(p);
    }
    const what = `${label} ${file.short} (${file.lines.toLocaleString('en')} lines, the corpus file nearest 5,000)`;
    const w = median(warm);
    for (const [when, list] of [
      ['first call after the pool went idle (its workers ended)', idle],
      ['first call in a fresh process (bundled as the app)', spawned],
    ] as const) {
      const m = median(list.map((r) => r.ms));
      rows.push({
        name: `get_ast_outline ${when}, ${what}: median of ${list.length} (CPU: the process's, all threads, during the call)`,
        ours: `${ms(m)} (worst ${ms(Math.max(...list.map((r) => r.ms)))}; CPU ${ms(median(list.map((r) => r.cpu)))})`,
        peer: `< ${LIMIT_MS} ms (a warm process's cold call: ${ms(w)}${python.length ? `; a fresh python3's first ast.parse: ${ms(median(python))}` : ''})`,
        ratio: m / w,
        target: `< ${LIMIT_MS} ms`,
        pass: m < LIMIT_MS,
      });
    }
  }
  rmSync(script, { force: true });
  return rows;
}

/**
 * The shell gate in a fresh process (docs/performance.md "Performance targets": the first decision under 20 ms, the
 * p99 of the first 100 under 2 ms), each figure from new child processes (bench/shell-gate-child.ts, bundled and run
 * with plain node as the built app runs: bundle-child.ts) that start a core as the shells do and decide as the
 * session does, with no warm-up of the bench's own. Five children per scenario (one with `--quick`); a figure is
 * the median over them, the worst and the CPU time beside it:
 * - at start, a plain command line (read without the grammar), then 100 plain lines;
 * - at start, a command only the bash grammar reads: its first decision waits for the grammar's load;
 * - one second after the app's background warm-up began (WARM_UP_DELAY_MS after the start: a person typing; the app
 *   has loaded the grammar), 100 commands of which 40 need the grammar.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleChild } from './bundle-child';
import { WARM_UP_DELAY_MS } from '../src/main/core/warm-up';
import { median, ms, percentile, type BenchOptions, type BenchRow } from './table';

const CHILDREN = 5;
/** When the `mixed-later` children start deciding (bench/shell-gate-child.ts). */
const LATER_S = (WARM_UP_DELAY_MS + 1_000) / 1_000;

interface ChildRun {
  startMs: number;
  times: number[];
  cpu: number[];
  mainCpu: number[];
}

function child(script: string, scenario: string): Promise<ChildRun> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-shell-cold-'));
  return new Promise((done, fail) => {
    const proc = spawn(process.execPath, [script, join(dir, 'data'), scenario], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (code !== 0 || !line) fail(new Error(`shell-gate-child ${scenario} exited ${code}: ${out.slice(0, 500)}`));
      else done(JSON.parse(line) as ChildRun);
    });
  });
}

async function children(script: string, scenario: string, count: number): Promise<ChildRun[]> {
  const runs = [];
  for (let i = 0; i < count; i++) runs.push(await child(script, scenario));
  return runs;
}

/**
 * Judged on wall time; the CPU time of the same decisions is shown beside it (what the neighbours do not inflate):
 * the process's (the grammar's compile on V8's background threads included) and the main thread's alone.
 */
const bound = (name: string, runs: ChildRun[], pick: (values: number[]) => number, limit: number): BenchRow => {
  const wall = runs.map((r) => pick(r.times));
  const cpu = runs.map((r) => pick(r.cpu));
  const main = runs.map((r) => pick(r.mainCpu));
  const m = median(wall);
  const mainPart = main.every(Number.isFinite) ? `, main thread ${ms(median(main))}` : '';
  return {
    name,
    ours: `${ms(m)} (worst ${ms(Math.max(...wall))}; CPU ${ms(median(cpu))}${mainPart})`,
    peer: `< ${limit} ms`,
    target: `< ${limit} ms`,
    pass: m < limit,
  };
};

export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const script = await bundleChild(fileURLToPath(new URL('./shell-gate-child.ts', import.meta.url)));
  const count = quick ? 1 : CHILDREN;
  const plain = await children(script, 'plain-now', count);
  const grammar = await children(script, 'grammar-now', count);
  const later = await children(script, 'mixed-later', count);
  const first = (values: number[]) => values[0]!;
  return [
    bound('shell gate, fresh process, at start: first decision (plain 3-part command)', plain, first, 20),
    bound(
      'shell gate, fresh process, at start: p99 of the first 100 plain lines',
      plain,
      (v) => percentile(v.slice(1), 99),
      2,
    ),
    bound(
      'shell gate, fresh process, at start: first command needing the grammar (waits for its load)',
      grammar,
      first,
      20,
    ),
    bound(
      `shell gate, fresh process, ${LATER_S} s after start (1 s into the app's warm-up): first decision (needs the grammar)`,
      later,
      first,
      20,
    ),
    bound(
      `shell gate, fresh process, ${LATER_S} s after start (1 s into the app's warm-up): p99 of the first 100 (40 need the grammar)`,
      later,
      (v) => percentile(v, 99),
      2,
    ),
  ];
}

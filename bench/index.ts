/**
 * `npm run bench`: the one entry for every benchmark. Each suite exports `run(options): Promise<BenchRow[]>`; this
 * prints the tables (for the issue notes), writes the results with a description of the machine, and exits non-zero
 * when a target is missed or a suite fails.
 * - `npm run bench -- <word>…` runs only the suites whose name contains one of the words.
 * - `--quick`: smaller inputs, the same code paths, the whole bench in under 2 minutes. CI runs it to prove the bench
 *   works; it fails only on errors (a suite that throws, a row whose results are wrong), never on a missed target,
 *   since a loaded CI machine says nothing about speed.
 * - A full run of every suite writes `bench/results.json`; any other run writes to the temp folder (the README's
 *   table must come from a full run).
 * - A full run first waits (up to 90 s) until the machine is quiet (machine-quiet.ts): it measures the app, not what
 *   ran before it.
 * - `--readme`: rewrites the README's generated Benchmarks block from `bench/results.json` (runs nothing).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMachine } from './machine';
import { waitForQuietMachine } from './machine-quiet';
import { rewriteReadme } from './readme';
import { printScaleTable, printTable, type BenchOptions, type BenchResults, type BenchRow } from './table';

const SETTLE_MS = 1_000;
const ROOT = join(import.meta.dirname, '..');
const RESULTS_FILE = join(ROOT, 'bench', 'results.json');

type Suite = { name: string; load: () => Promise<{ run: (options: BenchOptions) => Promise<BenchRow[]> }> };

const suites: Suite[] = [
  { name: 'core-start', load: () => import('./core-start') },
  { name: 'web-start', load: () => import('./web-start') },
  { name: 'tools-grep', load: () => import('./tools-grep') },
  { name: 'tools-fs', load: () => import('./tools-fs') },
  { name: 'tools-outline', load: () => import('./tools-outline') },
  { name: 'approval-gate', load: () => import('./approval-gate') },
  { name: 'shell-gate-cold', load: () => import('./shell-gate-cold') },
  { name: 'session-overhead', load: () => import('./session-overhead') },
  { name: 'history', load: () => import('./history') },
  { name: 'memory', load: () => import('./memory') },
  { name: 'agents', load: () => import('./agents') },
  { name: 'mcp', load: () => import('./mcp') },
  { name: 'ui', load: () => import('./ui') },
  { name: 'viewer', load: () => import('./viewer') },
];

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--readme')) {
    const results = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as BenchResults;
    rewriteReadme(join(ROOT, 'README.md'), results);
    console.log(`README.md: Benchmarks block rewritten from ${RESULTS_FILE} (${results.machine.date}).`);
    return;
  }
  const options: BenchOptions = { quick: argv.includes('--quick') };
  const words = argv.filter((a) => !a.startsWith('--'));
  const chosen = suites.filter((s) => words.length === 0 || words.some((w) => s.name.includes(w)));
  if (!options.quick) {
    const { waitedMs, quiet } = await waitForQuietMachine();
    process.stderr.write(`bench: ${quiet ? 'the machine was quiet' : 'the machine was still busy'} after ${(waitedMs / 1000).toFixed(1)} s\n`);
  }
  const loadStart = loadavg();
  const ran: BenchResults['suites'] = [];
  const rows: BenchRow[] = [];
  for (const suite of chosen) {
    process.stderr.write(`bench: ${suite.name}${options.quick ? ' (quick)' : ''}…\n`);
    const started = performance.now();
    try {
      const out = await (await suite.load()).run(options);
      rows.push(...out.map((r) => ({ ...r, suite: suite.name })));
      ran.push({ name: suite.name, seconds: (performance.now() - started) / 1000 });
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`bench: ${suite.name} FAILED: ${message}\n`);
      ran.push({ name: suite.name, seconds: (performance.now() - started) / 1000, error: message.split('\n')[0]! });
    }
    process.stderr.write(`bench: ${suite.name} took ${ran.at(-1)!.seconds.toFixed(1)} s\n`);
    // Let the last suite's teardown (child processes exiting, its garbage) finish before the next one measures.
    await new Promise((resolve) => setTimeout(resolve, options.quick ? 200 : SETTLE_MS));
  }
  const machine = describeMachine(loadStart);
  const results: BenchResults = { machine, quick: options.quick, suites: ran, rows };
  const complete = !options.quick && chosen.length === suites.length;
  const file = complete ? RESULTS_FILE : join(tmpdir(), 'skald-bench-results.partial.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);

  console.log(printTable(rows));
  const scale = printScaleTable(rows);
  if (scale) console.log(`\n${scale}`);
  console.log(`\n${machine.summary}`);
  console.log(`results: ${file}${complete ? ' (update the README with `npm run bench -- --readme`)' : ''}`);

  const failed = ran.filter((s) => s.error);
  const wrong = rows.filter((r) => r.wrong);
  const missed = rows.filter((r) => !r.pass);
  for (const s of failed) console.error(`FAILED suite ${s.name}: ${s.error}`);
  for (const r of wrong) console.error(`WRONG ${r.suite}: ${r.name}: ${r.wrong}`);
  if (failed.length || wrong.length) process.exitCode = 1;
  else if (missed.length) {
    if (options.quick) console.log(`--quick: ${missed.length} target(s) missed, not judged on a quick run.`);
    else process.exitCode = 1;
  }
}

void main();

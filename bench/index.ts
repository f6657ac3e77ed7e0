/**
 * `npm run bench`: the one entry for every benchmark. Each suite exports `run(options): Promise<BenchRow[]>`; this
 * prints the tables (for the issue notes), writes the results with a description of the machine, and exits non-zero
 * when a target is missed or a suite fails.
 * - `npm run bench -- <word>…` runs only the suites whose name contains one of the words.
 * - `--quick`: smaller inputs, the same code paths, the whole bench in under 2 minutes. CI runs it to prove the bench
 *   works; it fails only on errors (a suite that throws, a row whose results are wrong), never on a missed target,
 *   since a loaded CI machine says nothing about speed.
 * - A full run of every suite writes `bench/results.json`; any other run writes to the temp folder (the table of
 *   docs/performance.md must come from a full run).
 * - A full run first waits (up to 90 s) until the machine is quiet (machine-quiet.ts), and again (up to 30 s) before
 *   each later suite: each measures the app, not what ran before it (the last suite's processes exiting, its files
 *   and memory released).
 * - `--doc`: rewrites the generated table of docs/performance.md from `bench/results.json` (runs nothing).
 * - Each suite runs in a fresh process of its own (bench/suite-process.ts), one after the other: a suite's rows time
 *   the app's path, not the heap and the modules an earlier suite left in a shared process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeMachine } from './machine';
import { waitForQuietMachine } from './machine-quiet';
import { rewriteTable } from './performance-doc';
import type { SuiteAnswer } from './suite-process';
import { suites } from './suites';
import { printScaleTable, printTable, type BenchOptions, type BenchResults, type BenchRow } from './table';

/** Where the latest full run's table is kept (bench/performance-doc.ts). */
const PERFORMANCE_DOC = 'docs/performance.md';
/** A full run's wait for a quiet machine before each suite after the first. */
const SETTLE_MAX_MS = 30_000;
const ROOT = join(import.meta.dirname, '..');
const RESULTS_FILE = join(ROOT, 'bench', 'results.json');

/**
 * Runs one suite in a fresh Node process (bench/suite-process.ts, with this process's loader flags) and reads its
 * answer; a process that dies without one is the suite's failure.
 */
async function runInOwnProcess(name: string, options: BenchOptions): Promise<SuiteAnswer> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-suite-'));
  const answerFile = join(dir, 'answer.json');
  try {
    // Not `fork`: its IPC channel would be one more handle in every measured process.
    const args = [
      ...process.execArgv,
      join(ROOT, 'bench', 'suite-process.ts'),
      name,
      answerFile,
      ...(options.quick ? ['--quick'] : []),
    ];
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    const exit = await new Promise<string>((resolve) => {
      child.once('error', (error) => resolve(error.message));
      child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `exit code ${code}`));
    });
    try {
      return JSON.parse(readFileSync(answerFile, 'utf8')) as SuiteAnswer;
    } catch {
      return { error: `the suite's process ended (${exit}) without an answer` };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--doc')) {
    const results = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as BenchResults;
    rewriteTable(join(ROOT, PERFORMANCE_DOC), results);
    console.log(`${PERFORMANCE_DOC}: the table rewritten from ${RESULTS_FILE} (${results.machine.date}).`);
    return;
  }
  const options: BenchOptions = { quick: argv.includes('--quick') };
  const words = argv.filter((a) => !a.startsWith('--'));
  const chosen = suites.filter((s) => words.length === 0 || words.some((w) => s.name.includes(w)));
  if (!options.quick) {
    const { waitedMs, quiet } = await waitForQuietMachine();
    process.stderr.write(
      `bench: ${quiet ? 'the machine was quiet' : 'the machine was still busy'} after ${(waitedMs / 1000).toFixed(1)} s\n`,
    );
  }
  const loadStart = loadavg();
  const ran: BenchResults['suites'] = [];
  const rows: BenchRow[] = [];
  for (const [i, suite] of chosen.entries()) {
    // Let the last suite's teardown (child processes exiting, its files and memory released) finish before the next
    // one measures. A quick run only proves the paths work: a short pause is enough there.
    let settled: { quietAfterS?: number; quiet?: boolean } = {};
    if (i > 0 && options.quick) await new Promise((resolve) => setTimeout(resolve, 200));
    else if (i > 0) {
      const { waitedMs, quiet } = await waitForQuietMachine(SETTLE_MAX_MS);
      settled = { quietAfterS: Number((waitedMs / 1000).toFixed(1)), quiet };
    }
    process.stderr.write(
      `bench: ${suite.name}${options.quick ? ' (quick)' : ''}…${settled.quiet === false ? ' (the machine was still busy)' : ''}\n`,
    );
    const started = performance.now();
    const answer = await runInOwnProcess(suite.name, options);
    const seconds = (performance.now() - started) / 1000;
    if ('rows' in answer) {
      rows.push(...answer.rows.map((r) => ({ ...r, suite: suite.name })));
      ran.push({ name: suite.name, seconds, ...settled });
    } else {
      process.stderr.write(`bench: ${suite.name} FAILED: ${answer.error}\n`);
      ran.push({ name: suite.name, seconds, ...settled, error: answer.error.split('\n')[0]! });
    }
    process.stderr.write(`bench: ${suite.name} took ${seconds.toFixed(1)} s\n`);
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
  console.log(`results: ${file}${complete ? ` (update ${PERFORMANCE_DOC} with \`npm run bench -- --doc\`)` : ''}`);

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

/**
 * `npm run bench`: the one entry for every benchmark. Each suite exports `run(): Promise<BenchRow[]>`; this
 * prints one Markdown table (for the issue notes) and exits non-zero when a target is missed.
 * `npm run bench -- <suite>` runs only the suites whose name contains the word.
 */
import { printTable, type BenchRow } from './table';

const SETTLE_MS = 1_000;

type Suite = { name: string; load: () => Promise<{ run: () => Promise<BenchRow[]> }> };

const suites: Suite[] = [
  { name: 'core-start', load: () => import('./core-start') },
  { name: 'tools-grep', load: () => import('./tools-grep') },
  { name: 'tools-fs', load: () => import('./tools-fs') },
  { name: 'tools-outline', load: () => import('./tools-outline') },
  { name: 'approval-gate', load: () => import('./approval-gate') },
  { name: 'session-overhead', load: () => import('./session-overhead') },
  { name: 'history', load: () => import('./history') },
  { name: 'agents', load: () => import('./agents') },
  { name: 'mcp', load: () => import('./mcp') },
  { name: 'ui', load: () => import('./ui') },
  { name: 'viewer', load: () => import('./viewer') },
];

async function main(): Promise<void> {
  const filter = process.argv[2];
  const rows: BenchRow[] = [];
  for (const suite of suites.filter((s) => !filter || s.name.includes(filter))) {
    process.stderr.write(`bench: ${suite.name}…\n`);
    rows.push(...(await (await suite.load()).run()));
    // Let the last suite's teardown (child processes exiting, its garbage) finish before the next one measures.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }
  console.log(printTable(rows));
  if (rows.some((r) => !r.pass)) process.exitCode = 1;
}

void main();

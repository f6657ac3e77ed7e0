/**
 * One fresh process for bench/shell-gate-cold.ts: starts a core as the shells do (`createCore`, then `start()`, which
 * begins loading the bash grammar in the background), then times shell decisions the way the session makes them
 * (`whenReadyFor`, awaited only when the gate cannot read the command yet, then `check`), with no warm-up of its own.
 * argv: <data dir> <scenario>; prints one JSON line: { startMs, times, cpu, mainCpu } (ms; cpu: the process's CPU time
 * per decision, which a loaded machine does not inflate the way it does wall time; mainCpu: the main thread's alone).
 * - `plain-now`: at once, the bench's 3-part command, then 100 plain command lines;
 * - `grammar-now`: at once, a command only the grammar reads (so its first decision waits for the load);
 * - `mixed-later`: one second after the app's background warm-up began (WARM_UP_DELAY_MS after the start: a person
 *   typing, the app's own load done), 100 commands of which 40 need the grammar.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RunContextSchema } from '../src/shared/run-context';
import { createCore } from '../src/main/core/index';
import { WARM_UP_DELAY_MS } from '../src/main/core/warm-up';

const [dataDir, scenario] = process.argv.slice(2) as [string, 'plain-now' | 'grammar-now' | 'mixed-later'];
const workspace = join(dataDir, 'workspace');
mkdirSync(join(workspace, 'src'), { recursive: true });

const PLAIN = [
  'git status',
  'git diff --stat',
  'npm test',
  'npm run build',
  'ls -la src',
  'cat package.json',
  'node --version',
  'make -j4',
  'git log --oneline -5 | head -3',
  'cd src && ls',
];
const GRAMMAR = [
  'ls "my notes" | head -3',
  'echo $HOME > out.txt',
  'grep -rn "TODO" src || true',
  'for f in src/*; do wc -l "$f"; done',
  "git commit -m 'a && b'",
];
const plainLine = (i: number) => `${PLAIN[i % PLAIN.length]!} ${'x'.repeat(1 + (i % 7))}${i}`;
const grammarLine = (i: number) => `${GRAMMAR[i % GRAMMAR.length]!} # ${i}`;

const started = performance.now();
const core = await createCore({ dataDir, workspaceDir: workspace, shape: 'web', version: 'bench' });
core.start();
const startMs = performance.now() - started;
const runContext = RunContextSchema.parse({});
const gate = core.approval.port;

/** The main thread's CPU time so far, ms (Linux: /proc schedstat), or NaN where that is not readable. */
function mainThreadCpu(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * The wall time of one decision; its CPU time (the whole process's, background threads included) goes to `cpu`, and
 * the main thread's alone to `mainCpu` (what the decision waits for when the machine has a core free for it).
 */
async function decide(command: string): Promise<number> {
  const call = {
    sessionId: null,
    agentId: 'main',
    source: 'web',
    toolName: 'execute_cmd',
    category: 'shell' as const,
    args: { command, workdir: workspace },
    runContext,
    workingDir: workspace,
  };
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpu();
  const t = performance.now();
  const ready = gate.whenReadyFor?.(call); // (absent before the gate could wait: the bench runs on older code too)
  if (ready) await ready;
  gate.check(call);
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu0);
  cpu.push((used.user + used.system) / 1_000);
  mainCpu.push(mainThreadCpu() - main0);
  return wall;
}

const times: number[] = [];
const cpu: number[] = [];
const mainCpu: number[] = [];
if (scenario === 'plain-now') {
  times.push(await decide('git status && npm test | tee out.txt'));
  for (let i = 0; i < 100; i++) times.push(await decide(plainLine(i)));
} else if (scenario === 'grammar-now') {
  times.push(await decide(grammarLine(0)));
} else {
  await new Promise((resolve) => setTimeout(resolve, WARM_UP_DELAY_MS + 1_000));
  for (let i = 0; i < 100; i++) times.push(await decide(i % 5 < 2 ? grammarLine(i) : plainLine(i)));
}
process.stdout.write(`${JSON.stringify({ startMs, times, cpu, mainCpu })}\n`);
await core.dispose();

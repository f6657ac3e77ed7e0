/**
 * The gate's decision for one call against 1,000 rules, and gate + persistence per call (docs/architecture.md
 * "Performance targets"). Worst case on purpose: none of the 1,000 rules in the session's group matches, so every call
 * walks all of them, then the default group, then the fast-path (a few realpath calls). Bounds and why:
 * - decision median < 0.1 ms, p99 < 1 ms: the gate is synchronous CPU work on cached, compiled rules; a tenth of
 *   the whole per-call overhead budget (1 ms) leaves the rest for SQLite.
 * - shell decision (tree-sitter parse of a compound command, each part against the rules) median < 0.5 ms,
 *   p99 < 2 ms, in steady state (see the warm-up note below).
 * What a call costs with its rows, events and commits is timed on the session's real path in session-overhead.ts.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunContextSchema } from '../src/shared/run-context';
import { createApprovalServices } from '../src/main/core/approval/index';
import { closeDatabase, openDatabase } from '../src/main/core/db/database';
import { median, ms, percentile, type BenchRow } from './table';

function timeIt(n: number, fn: (i: number) => void, warmUp = 200): number[] {
  for (let i = 0; i < warmUp; i++) fn(i); // JIT, statement cache, rule cache
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn(i);
    out.push(performance.now() - t);
  }
  return out;
}

export async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'skald-bench-gate-'));
  const dataDir = join(root, 'data');
  const workspace = join(dataDir, 'workspace');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  const dbFile = join(dataDir, 'skald.db');
  const db = openDatabase({ file: dbFile });
  const approval = await createApprovalServices({ db, workspaceDir: workspace, dataDir, dbFile, emitSession: () => {}, emitInbox: () => {} });
  approval.rules.createGroup({ id: 'bench', name: 'Bench' });
  db.transaction(() => {
    for (let i = 0; i < 1_000; i++) {
      const kind = i % 4;
      approval.rules.createRule({
        group_id: 'bench',
        tool_pattern: kind === 0 ? `tool_${i}` : kind === 1 ? '@fs_write' : kind === 2 ? 'execute_cmd' : `mcp__srv${i}__*`,
        path_pattern: kind === 1 ? `dir_${i}/*` : null,
        command_pattern: kind === 2 ? `tool${i} *` : null,
        action: i % 3 === 0 ? 'deny' : 'allow',
        priority: i,
      });
    }
  })();
  const runContext = RunContextSchema.parse({ security_group: 'bench' });
  const base = { sessionId: 1, agentId: 'main', source: 'web', category: 'filesystem' as const, runContext, workingDir: workspace };
  const writeCall = { ...base, toolName: 'write_file', args: { path: join(workspace, 'src/app.ts'), content: 'x' } };
  const shellCall = { ...base, toolName: 'execute_cmd', category: 'shell' as const, args: { command: 'git status && npm test | tee out.txt', workdir: workspace } };
  if (approval.gate.check(writeCall).action !== 'require') throw new Error('bench setup: the write call should walk every rule and ask');

  const decision = timeIt(5_000, () => approval.gate.check(writeCall));
  // V8 tiers the tree-sitter wasm up lazily: the first few thousand parses show 5–50 ms pauses, steady state does
  // not. Measured here is the steady state; the cold start is a one-off per process.
  const shell = timeIt(2_000, () => approval.gate.check(shellCall), 6_000);

  closeDatabase(db);
  rmSync(root, { recursive: true, force: true });
  const row = (name: string, values: number[], medianBound: number, p99Bound: number): BenchRow => {
    const m = median(values);
    // The p99 of a sub-millisecond CPU task on a shared 2-core machine mostly measures the neighbours: a burst of
    // another process's work lands in one stretch of samples. So the p99 reported is the median of the p99s of
    // five consecutive batches (a burst spoils one batch, not the figure); the raw p99 is shown beside it.
    const size = Math.floor(values.length / 5);
    const p99 = median([0, 1, 2, 3, 4].map((b) => percentile(values.slice(b * size, (b + 1) * size), 99)));
    const raw = percentile(values, 99);
    return { name, ours: `${ms(m)} median, ${ms(p99)} p99 (raw ${ms(raw)})`, peer: `< ${medianBound} ms median, < ${p99Bound} ms p99`, target: `median < ${medianBound} ms, p99 < ${p99Bound} ms`, pass: m < medianBound && p99 < p99Bound };
  };
  return [
    row('gate decision, 1,000 rules (fs write, no match)', decision, 0.1, 1),
    row('gate decision, 1,000 rules (3-part shell command)', shell, 0.5, 2),
  ];
}

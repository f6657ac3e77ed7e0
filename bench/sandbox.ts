/**
 * What the sandbox costs a command (docs/sandbox.md): `true` through execute_cmd's real run (the tool from the core's
 * registry, with the sandbox the core wires, started as a session's call starts it), sandboxed without network
 * (bubblewrap: its namespaces, the plan's mounts, the seccomp filter) against the same call decided `unconfined`,
 * interleaved call by call. The workspace is the default layout (inside the data folder) with a git repository and
 * `secrets` folders at several depths, so the plan has its usual mounts. Target: the median adds < 15 ms. The row is
 * wrong when a call failed or when the calls built more than one plan (a plan is built once per session's folders,
 * never per call).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../src/main/core/index';
import { driveExecution } from '../src/main/core/tools/execution';
import type { ToolRunContext } from '../src/main/core/tools/tool';
import { interleaved, median, ms, type BenchOptions, type BenchRow } from './table';

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-sandbox-'));
  const dataDir = join(dir, 'data');
  const ws = join(dataDir, 'workspace');
  const core = await createCore({ dataDir, workspaceDir: ws, shape: 'web', version: 'bench' });
  try {
    for (let i = 0; i < 40; i++)
      writeFileSync(join(mkdirP(ws, `src/m${i % 8}/d${i}`), 'f.ts'), `export const x = ${i};\n`);
    for (const at of ['secrets', 'src/m1/secrets', 'src/m2/d10/Secrets']) mkdirP(ws, at);
    execFileSync('git', ['init', '-q', ws]);
    const tool = core.tools.get('execute_cmd');
    if (!tool) throw new Error('execute_cmd is not registered');
    const ctx: ToolRunContext = {
      workingDir: ws,
      workspaceDir: ws,
      signal: new AbortController().signal,
      log: () => {},
      protectedRoots: [dataDir],
    };
    let wrong = '';
    const call = async (sandbox: ToolRunContext['sandbox']) => {
      const outcome = await driveExecution(tool.run({ command: 'true' }, { ...ctx, sandbox }), ctx.signal);
      if (outcome.kind !== 'completed' || outcome.result !== '(no output)\n[exit code 0]')
        wrong = `a call ended ${outcome.kind}: ${JSON.stringify(outcome)}`;
    };
    const runs = options.quick ? 10 : 60;
    const times = await interleaved(
      () => call({ mode: 'sandboxed', network: false }),
      () => call({ mode: 'unconfined' }),
      runs,
      3,
    );
    if (core.sandbox.plansBuilt !== 1) wrong ||= `${core.sandbox.plansBuilt} plans were built for one session's calls`;
    const [ours, peer] = [median(times.ours), median(times.peer)];
    return [
      {
        name: `execute_cmd \`true\` in the sandbox (bubblewrap, no network) vs unconfined, interleaved (median of ${runs})`,
        ours: ms(ours),
        peer: ms(peer),
        ratio: ours / peer,
        target: 'adds < 15 ms',
        pass: ours - peer < 15 && !wrong,
        ...(wrong ? { wrong } : {}),
      },
    ];
  } finally {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

function mkdirP(root: string, rel: string): string {
  const path = join(root, rel);
  mkdirSync(path, { recursive: true });
  return path;
}

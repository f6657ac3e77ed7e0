/**
 * One fresh process for bench/tools-outline-cold.ts, bundled like the app (that file builds it, with the outline
 * worker's entry beside it). argv: <workspace> <file name> <fresh|idle>; prints one JSON line: { ms, cpu }, the
 * wall time of one call from its start to its answer and the process's CPU time meanwhile:
 * - fresh: the process's first call (nothing before it but loading the modules);
 * - idle: a first call, then the pool ended as its idle timer ends it (`outlinePool().close()`, the timer's own
 *   call) and the cache emptied: the call after that.
 */
import { getAstOutlineTool } from '../src/main/core/tools/outline/get-ast-outline';
import { outlinePool } from '../src/main/core/tools/outline/outline-pool';
import { outlineCache } from '../src/main/core/tools/outline/outline-service';

const [workspace, name, mode] = process.argv.slice(2) as [string, string, 'fresh' | 'idle'];
const ctx = {
  workingDir: workspace,
  workspaceDir: workspace,
  signal: new AbortController().signal,
  log: () => undefined,
};
/** The call's wall time and this process's CPU time meanwhile (all threads: a loaded machine inflates only the first). */
const call = async (): Promise<{ ms: number; cpu: number }> => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const outcome = await getAstOutlineTool.executeAsync({ path: name }, ctx);
  const took = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (outcome.kind !== 'completed') throw new Error(JSON.stringify(outcome));
  return { ms: took, cpu: (used.user + used.system) / 1000 };
};
if (mode === 'idle') {
  await call();
  await outlinePool().close();
  outlineCache().clear();
}
console.log(JSON.stringify(await call()));
process.exit(0);

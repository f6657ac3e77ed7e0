/**
 * Waits until the whole machine is quiet before the bench starts measuring (Linux: /proc/stat; elsewhere at once).
 * The first suites time process starts on 2 cores, and whatever ran just before (a build, the test suite, CI's
 * install) still held a core for a while: a full run that started right after a build timed the core's share of
 * start at 312 ms, the same suite alone a few minutes later at 227 ms.
 */
import { readFileSync } from 'node:fs';

const SAMPLE_MS = 500;
/** A sample counts as quiet when the machine's cores were at least this idle over it. */
const QUIET_IDLE = 0.9;
const QUIET_SAMPLES = 3;

/** Idle and total jiffies of all cores so far. */
function cpuTimes(): { idle: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle + iowait is time no task ran.
  return { idle: fields[3]! + (fields[4] ?? 0), total: fields.slice(0, 8).reduce((a, b) => a + b, 0) };
}

/** Resolves once 3 samples of 500 ms in a row were ≥ 90% idle, or after `maxMs`; returns the ms waited and whether it got quiet. */
export async function waitForQuietMachine(maxMs = 90_000): Promise<{ waitedMs: number; quiet: boolean }> {
  if (process.platform !== 'linux') return { waitedMs: 0, quiet: true };
  const started = performance.now();
  let quietRun = 0;
  let last = cpuTimes();
  while (performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const now = cpuTimes();
    const total = now.total - last.total;
    quietRun = total > 0 && (now.idle - last.idle) / total >= QUIET_IDLE ? quietRun + 1 : 0;
    last = now;
    if (quietRun >= QUIET_SAMPLES) return { waitedMs: performance.now() - started, quiet: true };
  }
  return { waitedMs: performance.now() - started, quiet: false };
}

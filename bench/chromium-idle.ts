/**
 * Waits until the Chromium this bench process launched is idle (docs/performance.md "Performance targets").
 * A page Playwright opens is a new browser window, and headless Chromium then spends about 2.5 s of CPU over the next
 * 1.5 s on that window's own top-chrome WebUI (the omnibox popup, preloaded in a renderer of its own) and in its
 * browser process, whatever the page shows. On 2 cores, a start timed from right after `newPage()` ran beside that
 * work: it doubled the web shape's spawn → listening. A browser a person already has open is not building a window
 * when they open the app's URL, so the start rows wait for this before they spawn the app.
 * Linux only (reads /proc); elsewhere it returns at once.
 */
import { readdirSync, readFileSync } from 'node:fs';

const SAMPLE_MS = 100;
/** One clock tick (10 ms at the usual 100 Hz) or less in a sample counts as quiet. */
const QUIET_CPU_MS = 10;
const QUIET_SAMPLES = 3;

interface Proc {
  ppid: number;
  /** user + system CPU, ms */
  cpu: number;
  name: string;
}

function readProcs(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The name is in parentheses and may hold spaces: the fields after it are split on the last ')'.
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      procs.set(Number(entry), {
        ppid: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) * 10,
        name: stat.slice(stat.indexOf('(') + 1, close),
      });
    } catch {
      // gone between the listing and the read
    }
  }
  return procs;
}

/** CPU (ms) used so far by this process's Chromium descendants. */
export function chromiumCpuMs(): number {
  const procs = readProcs();
  const children = new Map<number, number[]>();
  for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  let total = 0;
  const stack = [...(children.get(process.pid) ?? [])];
  while (stack.length) {
    const pid = stack.pop()!;
    const p = procs.get(pid)!;
    if (/chrom/i.test(p.name)) total += p.cpu;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Resolves once Chromium used at most a tick of CPU in each of 3 samples of 100 ms in a row (or after `maxMs`); returns the ms waited. */
export async function waitForChromiumIdle(maxMs = 10_000): Promise<number> {
  if (process.platform !== 'linux') return 0;
  const started = performance.now();
  let last = chromiumCpuMs();
  let quiet = 0;
  while (quiet < QUIET_SAMPLES && performance.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const now = chromiumCpuMs();
    quiet = now - last <= QUIET_CPU_MS ? quiet + 1 : 0;
    last = now;
  }
  return performance.now() - started;
}

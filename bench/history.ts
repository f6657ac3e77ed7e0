/**
 * Long sessions (docs/performance.md "Performance targets"), on sessions of 500, 5,000 and 50,000 messages in one
 * database (200 and 2,000, one round, with `--quick`), each read in turn, three times, in a rotating order, so a
 * burst of another process's work does not land on one size only. One pass over a small session first warms the JIT.
 * - History pages through the bridge's real boundary (`dispatchCall` → `chat:history`: the request parsed, the
 *   store's page, the tool cards built; the answer leaves as built, `answerBuiltByHandler`), as the renderer asks for them: the newest page (200
 *   messages), then 100 at a time up to the top. Every page of the largest session under 20 ms (wall time); paging
 *   to the top grows linearly (the largest at most 11× the middle one, the peer in the same run); the median page
 *   stays flat. The largest session's row also gives each page's CPU time: the slowest page's, and the most any page
 *   took. A page far slower than its CPU time waited for a core (the machine's other processes); the CPU tail is the
 *   garbage collector (a scavenge a few ms, a full collection ten or more on a loaded machine), not a query plan (the
 *   plans are checked in session/history-queries.test.ts) nor a checkpoint (a page writes nothing, and nothing else
 *   of the app can run inside the synchronous call). So the row also counts the collections of each pass to the top
 *   of the largest session, with the longest pause of each kind: fewer bytes allocated per page, fewer of them.
 * - The model's context for one round (`buildContext`, what every round of a turn rebuilds from the database: the
 *   system prompt, the capped history and its tool rows): flat in the session's length.
 * - Searching every chat, on the same database (bench/chat-search.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants as perf } from 'node:perf_hooks';
import { dispatchCall } from '../src/main/core/bridge/dispatch';
import { createCore, type Core } from '../src/main/core/index';
import { buildContext } from '../src/main/core/session/context';
import { chatSearchRows } from './chat-search';
import { seedSession } from './seed-session';
import { median, ms, percentile, type BenchOptions, type BenchRow } from './table';

const CONTEXT_RUNS = 20;

/**
 * Every page of one session, newest first, as the chat view loads them; the time of each call, and the CPU time this
 * process spent in it (`cpu`, when given): a page whose wall time is far above its CPU time waited for a core, not for
 * the app (the call is synchronous: no timer or I/O of the app's can run inside it).
 */
async function pageToTop(core: Core, sessionId: number, cpu?: number[]): Promise<number[]> {
  const times: number[] = [];
  let beforeId: number | undefined;
  for (;;) {
    const cpuStart = cpu ? process.cpuUsage() : null;
    const started = performance.now();
    const outcome = await dispatchCall(
      core.handlers,
      'chat:history',
      beforeId === undefined ? { sessionId } : { sessionId, beforeId, limit: 100 },
    );
    times.push(performance.now() - started);
    if (cpuStart) {
      const used = process.cpuUsage(cpuStart);
      cpu!.push((used.user + used.system) / 1000);
    }
    if (!outcome.ok) throw new Error(`chat:history failed: ${outcome.error.message}`);
    const page = outcome.result as { messages: { id: number }[]; hasMore: boolean };
    if (!page.hasMore) return times;
    beforeId = page.messages[0]!.id;
  }
}

function contextTimes(core: Core, sessionId: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < CONTEXT_RUNS; i++) {
    const started = performance.now();
    buildContext(core.sessions.store, {
      sessionId,
      contextStartId: 0,
      systemPrompt: 'You are Skald.',
      extraSystemPrompts: [],
      workingDir: '/ws',
      scratchpad: [],
    });
    times.push(performance.now() - started);
  }
  return times;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The garbage collections while `work` runs: how many scavenges (young space) and full collections, and the longest
 * pause of each kind; what a page's allocation costs shows here, apart from the machine's load.
 */
async function collections<T>(work: () => Promise<T>): Promise<{ result: T; text: string }> {
  const pauses: { major: boolean; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind;
      if (kind === perf.NODE_PERFORMANCE_GC_MINOR) pauses.push({ major: false, ms: e.duration });
      else if (kind === perf.NODE_PERFORMANCE_GC_MAJOR || kind === perf.NODE_PERFORMANCE_GC_INCREMENTAL)
        pauses.push({ major: true, ms: e.duration });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const result = await work();
  // The entries come on later turns of the event loop (a pass to the top is one synchronous call after another).
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const of = (major: boolean) => pauses.filter((p) => p.major === major);
  const longest = (list: { ms: number }[]) => ms(Math.max(0, ...list.map((p) => p.ms)));
  const [minor, major] = [of(false), of(true)];
  return {
    result,
    text: `GC: ${minor.length} scavenges (longest ${longest(minor)}), ${major.length} full or incremental (longest ${longest(major)})`,
  };
}
const count = (n: number) => n.toLocaleString('en-US');

export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const sizes = quick ? [200, 2_000] : [500, 5_000, 50_000];
  const ROUNDS = quick ? 1 : 3;
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-history-'));
  const core = await createCore({
    dataDir: join(dir, 'data'),
    workspaceDir: join(dir, 'ws'),
    shape: 'web',
    version: 'bench',
  });
  try {
    const sessions = sizes.map((n) => seedSession(core.db, n));
    const warm = seedSession(core.db, 500, 'warm-up');
    await pageToTop(core, warm);
    contextTimes(core, warm);
    const pages = sizes.map(() => [] as number[]);
    const bigCpu: number[] = [];
    const totals = sizes.map(() => [] as number[]);
    const contexts = sizes.map(() => [] as number[]);
    const gcTexts: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < sizes.length; k++) {
        const i = (k + round) % sizes.length;
        const isBig = i === sizes.length - 1;
        const paged = await collections(() => pageToTop(core, sessions[i]!, isBig ? bigCpu : undefined));
        const times = paged.result;
        if (isBig) gcTexts.push(paged.text);
        pages[i]!.push(...times);
        totals[i]!.push(sum(times));
        contexts[i]!.push(...contextTimes(core, sessions[i]!));
      }
    }
    const last = sizes.length - 1;
    const big = pages[last]!;
    const worst = Math.max(...big);
    const worstCpu = bigCpu[big.indexOf(worst)]!;
    const [totalBig, totalMid] = [median(totals[last]!), median(totals[last - 1]!)];
    const growth = totalBig / totalMid;
    const flatPage = median(pages[0]!);
    const flatContext = median(contexts[0]!);
    const rows: BenchRow[] = [
      {
        name: `history: every page of a ${count(sizes[last]!)}-message session (${big.length / ROUNDS} pages × ${ROUNDS})`,
        ours: `max ${ms(worst)} (its CPU ${ms(worstCpu)}), p99 ${ms(percentile(big, 99))}, median ${ms(median(big))}; CPU per page: max ${ms(Math.max(...bigCpu))}, p99 ${ms(percentile(bigCpu, 99))}; per pass to the top: ${gcTexts.join(' / ')}`,
        peer: '< 20 ms',
        target: 'every page < 20 ms',
        pass: worst < 20,
      },
      {
        name: `history: paging to the top, ${count(sizes[last]!)} vs ${count(sizes[last - 1]!)} messages`,
        ours: ms(totalBig),
        peer: ms(totalMid),
        ratio: growth,
        target: '≤ 11× (linear)',
        pass: growth <= 11,
      },
    ];
    sizes.forEach((n, i) => {
      const factor = n / sizes[0]!;
      const page = median(pages[i]!);
      const context = median(contexts[i]!);
      rows.push(
        {
          name: `history page, ${factor}× (${count(n)} messages): median`,
          ours: ms(page),
          peer: ms(flatPage),
          ratio: page / flatPage,
          target: '≤ 2× the 1× page',
          pass: page / flatPage <= 2,
          scale: { series: 'history page (chat:history), median', factor, value: page },
        },
        {
          name: `model context for one round, ${factor}× (${count(n)} messages): median`,
          ours: ms(context),
          peer: ms(flatContext),
          ratio: context / flatContext,
          target: '≤ 2× the 1×',
          pass: context / flatContext <= 2,
          scale: { series: 'model context for one round (buildContext), median', factor, value: context },
        },
      );
    });
    const total = sizes.reduce((a, b) => a + b, 0) + 500; // and the warm-up session's
    rows.push(...(await chatSearchRows(core, total)));
    return rows;
  } finally {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

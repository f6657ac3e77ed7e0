/**
 * Long sessions (docs/architecture.md "Performance targets"), on sessions of 500, 5,000 and 50,000 messages in one
 * database (500 and 2,000, one round, with `--quick`), each read in turn, three times, in a rotating order, so a
 * burst of another process's work does not land on one size only. One pass over a small session first warms the JIT.
 * - History pages as a window gets them: the built web shape (`node out/main/web.js`, bench/web-process.ts) serves
 *   the database, and this process asks over its WebSocket as the page does (`chat:history`: the request sent, the
 *   server's parse, the store's page, the tool cards, the answer serialized and sent, then parsed here as the page
 *   parses it). Opening a session (its newest page, 200 messages: chat-store `open`), then older pages 100 at a time
 *   up to the top (`loadOlder`). Every page of the largest session under 20 ms (wall time, here); paging to the top
 *   grows linearly (the largest at most 11× the middle one, the peer in the same run); the median page stays flat.
 * - The model's context for one round (`buildContext`, what every round of a turn rebuilds from the database: the
 *   system prompt, the capped history and its tool rows), in this process (no window sees it): flat in the session's
 *   length.
 * - Searching every chat, on the same database, in this process (bench/chat-search.ts).
 * The in-process rows run first; the core is then closed and the web shape opens the same data folder; the pages
 * start once its warm-up after start is over (its process idle for half a second).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore, type Core } from '../src/main/core/index';
import { buildContext } from '../src/main/core/session/context';
import { chatSearchRows } from './chat-search';
import { seedSession } from './seed-session';
import { median, ms, percentile, type BenchOptions, type BenchRow } from './table';
import { builtWebEntry, startWebProcess, type WebProcess } from './web-process';

const CONTEXT_RUNS = 20;

/** The CPU time (ms) a process has used so far, from /proc (clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime
}

/**
 * Waits (up to 15 s) until the web shape's process has used no CPU for half a second: its warm-up after start (the
 * first turn's modules, two seconds after it serves: docs/architecture.md "Start and memory") is over, so the pages
 * are timed on the steady app, not beside its start.
 */
async function quietProcess(pid: number): Promise<void> {
  let last = cpuMsOf(pid);
  for (let waited = 0; waited < 15_000; waited += 500) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuMsOf(pid);
    if (now === last && waited >= 2_500) return;
    last = now;
  }
}

/** Opens of a session timed apart (its newest page), per round, besides the one that starts each pass to the top. */
const OPENS = 5;

type HistoryPage = { messages: { id: number }[]; hasMore: boolean };

/** One `chat:history` call over the WebSocket, timed from the request sent to the answer parsed. */
async function timedPage(web: WebProcess, request: object): Promise<{ ms: number; page: HistoryPage }> {
  const started = performance.now();
  const page = (await web.call('chat:history', request)) as HistoryPage;
  return { ms: performance.now() - started, page };
}

/** Every page of one session, newest first, as the chat view loads them: the open's time, then each older page's. */
async function pageToTop(web: WebProcess, sessionId: number): Promise<{ open: number; older: number[] }> {
  const first = await timedPage(web, { sessionId });
  const older: number[] = [];
  let page = first.page;
  while (page.hasMore) {
    const next = await timedPage(web, { sessionId, beforeId: page.messages[0]!.id, limit: 100 });
    older.push(next.ms);
    page = next.page;
  }
  return { open: first.ms, older };
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

const count = (n: number) => n.toLocaleString('en-US');

export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  builtWebEntry(); // fails early on a stale build
  const sizes = quick ? [500, 2_000] : [500, 5_000, 50_000];
  const ROUNDS = quick ? 1 : 3;
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-history-'));
  const dataDir = join(dir, 'data');
  try {
    const core = await createCore({ dataDir, workspaceDir: join(dir, 'ws'), shape: 'web', version: 'bench' });
    let sessions: number[];
    let warm: number;
    const rows: BenchRow[] = [];
    const contexts = sizes.map(() => [] as number[]);
    try {
      sessions = sizes.map((n) => seedSession(core.db, n));
      warm = seedSession(core.db, 500, 'warm-up');
      contextTimes(core, warm);
      for (let round = 0; round < ROUNDS; round++)
        for (let k = 0; k < sizes.length; k++) {
          const i = (k + round) % sizes.length;
          contexts[i]!.push(...contextTimes(core, sessions[i]!));
        }
      const total = sizes.reduce((a, b) => a + b, 0) + 500; // and the warm-up session's
      rows.push(...(await chatSearchRows(core, total)));
    } finally {
      await core.dispose();
    }
    const web = await startWebProcess(dataDir);
    await quietProcess(web.pid);
    const opens = sizes.map(() => [] as number[]);
    const pages = sizes.map(() => [] as number[]);
    const totals = sizes.map(() => [] as number[]);
    try {
      await pageToTop(web, warm);
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < sizes.length; k++) {
          const i = (k + round) % sizes.length;
          const { open, older } = await pageToTop(web, sessions[i]!);
          opens[i]!.push(open);
          for (let o = 0; o < OPENS; o++) opens[i]!.push((await timedPage(web, { sessionId: sessions[i]! })).ms);
          pages[i]!.push(...older);
          totals[i]!.push(open + sum(older));
        }
      }
    } finally {
      await web.stop();
    }
    const last = sizes.length - 1;
    const big = pages[last]!;
    const bigOpens = opens[last]!;
    const worst = Math.max(...big);
    const [totalBig, totalMid] = [median(totals[last]!), median(totals[last - 1]!)];
    const growth = totalBig / totalMid;
    const flatPage = median(pages[0]!);
    const flatContext = median(contexts[0]!);
    const over = `over the WebSocket of \`node out/main/web.js\`, request sent → answer parsed`;
    rows.unshift(
      {
        name: `history: opening a ${count(sizes[last]!)}-message session (chat:history, its newest 200 messages) ${over} (${bigOpens.length} opens)`,
        ours: `max ${ms(Math.max(...bigOpens))}, median ${ms(median(bigOpens))}`,
        peer: '< 20 ms',
        target: 'every open < 20 ms',
        pass: Math.max(...bigOpens) < 20,
      },
      {
        name: `history: every older page (100 messages) of a ${count(sizes[last]!)}-message session to its top ${over} (${big.length / ROUNDS} pages × ${ROUNDS})`,
        ours: `max ${ms(worst)}, p99 ${ms(percentile(big, 99))}, median ${ms(median(big))}`,
        peer: '< 20 ms',
        target: 'every page < 20 ms',
        pass: worst < 20,
      },
      {
        name: `history: opening and paging to the top ${over}, ${count(sizes[last]!)} vs ${count(sizes[last - 1]!)} messages`,
        ours: ms(totalBig),
        peer: ms(totalMid),
        ratio: growth,
        target: '≤ 11× (linear)',
        pass: growth <= 11,
      },
    );
    sizes.forEach((n, i) => {
      const factor = n / sizes[0]!;
      const page = median(pages[i]!);
      const context = median(contexts[i]!);
      rows.push(
        {
          name: `history: an older page (100 messages) ${over}, ${factor}× (${count(n)} messages): median`,
          ours: ms(page),
          peer: ms(flatPage),
          ratio: page / flatPage,
          target: '≤ 2× the 1× page',
          pass: page / flatPage <= 2,
          scale: { series: 'history page over the WebSocket (chat:history), median', factor, value: page },
        },
        {
          name: `model context for one round, in-process (buildContext), ${factor}× (${count(n)} messages): median`,
          ours: ms(context),
          peer: ms(flatContext),
          ratio: context / flatContext,
          target: '≤ 2× the 1×',
          pass: context / flatContext <= 2,
          scale: { series: 'model context for one round, in-process (buildContext), median', factor, value: context },
        },
      );
    });
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

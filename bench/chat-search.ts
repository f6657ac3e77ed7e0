/**
 * Searching the chats (docs/ui.md "Searching chats"), on the history bench's database (bench/history.ts): every
 * message is scanned for a word in none of them, through the bridge's real boundary (`chat:search`: the request
 * parsed, the worker thread's own read-only connection, the chunked scan, the answer). Two figures: how long the
 * answer takes, and the longest the core's event loop was kept from running meanwhile (a timer asked for every
 * millisecond; the gap past that millisecond is the stall), which stays small only because the scan runs on its
 * worker. The first search starts the worker and opens its connection; it is timed apart from the steady ones.
 */
import { dispatchCall } from '../src/main/core/bridge/dispatch';
import type { Core } from '../src/main/core/index';
import { median, ms, type BenchRow } from './table';

const RUNS = 5;
const NOWHERE = 'zqxjv-in-no-message';

async function timedSearch(core: Core): Promise<{ answer: number; stall: number }> {
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 1);
    last = now;
  }, 1);
  const started = performance.now();
  const outcome = await dispatchCall(core.handlers, 'chat:search', { query: NOWHERE });
  const answer = performance.now() - started;
  clearInterval(timer);
  if (!outcome.ok) throw new Error(`chat:search failed: ${outcome.error.message}`);
  if ((outcome.result as { hits: unknown[] }).hits.length !== 0)
    throw new Error('chat:search found a word that is in no message');
  return { answer, stall: Math.max(stall, performance.now() - last - 1) };
}

export async function chatSearchRows(core: Core, messages: number): Promise<BenchRow[]> {
  const first = await timedSearch(core);
  const runs: { answer: number; stall: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await timedSearch(core));
  const answer = median(runs.map((r) => r.answer));
  const stall = Math.max(first.stall, ...runs.map((r) => r.stall));
  const label = `chat search, a word in none of ${messages.toLocaleString('en-US')} messages (every one scanned, on its worker thread)`;
  return [
    {
      name: `${label}: answer, median of ${RUNS} (the first, starting the worker: ${ms(first.answer)})`,
      ours: ms(answer),
      peer: '< 1 s',
      target: '< 1 s',
      pass: answer < 1_000,
    },
    {
      name: `${label}: the core's longest event-loop stall while it scans`,
      ours: ms(stall),
      peer: '< 20 ms',
      target: '< 20 ms (the core answers meanwhile)',
      pass: stall < 20,
    },
  ];
}

/**
 * History pages of long sessions through the bridge's real boundary (`dispatchCall` → `chat:history`: the request
 * parsed, the store's page, the tool cards built, the response parsed), as the renderer asks for them: the newest
 * page (200 messages), then 100 at a time up to the top (docs/architecture.md "Performance targets"):
 * - every page of a 50,000-message session under 20 ms;
 * - paging to the top grows linearly: 50,000 messages cost at most 11× what 5,000 do (the peer, same run);
 * - scale: the median page at 1×, 10× and 100× (500, 5,000, 50,000 messages) stays flat (≤ 2× the 1× figure).
 * The three sessions live in one database and are paged in turn, three times, in a rotating order, so a burst
 * of another process's work does not land on one size only. One pass over a small session first warms the JIT.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dispatchCall } from '../src/main/core/bridge/dispatch';
import { createCore, type Core } from '../src/main/core/index';
import { seedSession } from './seed-session';
import { median, ms, percentile, type BenchOptions, type BenchRow } from './table';

const SIZES = [500, 5_000, 50_000] as const;

/** Every page of one session, newest first, as the chat view loads them; the time of each call. */
async function pageToTop(core: Core, sessionId: number): Promise<number[]> {
  const times: number[] = [];
  let beforeId: number | undefined;
  for (;;) {
    const started = performance.now();
    const outcome = await dispatchCall(core.handlers, 'chat:history', beforeId === undefined ? { sessionId } : { sessionId, beforeId, limit: 100 });
    times.push(performance.now() - started);
    if (!outcome.ok) throw new Error(`chat:history failed: ${outcome.error.message}`);
    const page = outcome.result as { messages: { id: number }[]; hasMore: boolean };
    if (!page.hasMore) return times;
    beforeId = page.messages[0]!.id;
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** `--quick`: one round over the three sizes instead of three. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const ROUNDS = quick ? 1 : 3;
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-history-'));
  const core = await createCore({ dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'bench' });
  try {
    const sessions = SIZES.map((n) => seedSession(core.db, n));
    await pageToTop(core, seedSession(core.db, 500, 'warm-up'));
    const pages = new Map<number, number[]>(SIZES.map((n) => [n, []]));
    const totals = new Map<number, number[]>(SIZES.map((n) => [n, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < SIZES.length; k++) {
        const i = (k + round) % SIZES.length;
        const times = await pageToTop(core, sessions[i]!);
        pages.get(SIZES[i]!)!.push(...times);
        totals.get(SIZES[i]!)!.push(sum(times));
      }
    }
    const big = pages.get(50_000)!;
    const worst = Math.max(...big);
    const total5k = median(totals.get(5_000)!);
    const total50k = median(totals.get(50_000)!);
    const growth = total50k / total5k;
    const flat = median(pages.get(500)!);
    const rows: BenchRow[] = [
      {
        name: `history: every page of a 50,000-message session (${big.length / ROUNDS} pages × ${ROUNDS})`,
        ours: `max ${ms(worst)}, p99 ${ms(percentile(big, 99))}, median ${ms(median(big))}`,
        peer: '< 20 ms',
        target: 'every page < 20 ms',
        pass: worst < 20,
      },
      {
        name: 'history: paging to the top, 50,000 vs 5,000 messages',
        ours: ms(total50k),
        peer: ms(total5k),
        ratio: growth,
        target: '≤ 11× (linear)',
        pass: growth <= 11,
      },
    ];
    for (const n of SIZES) {
      const m = median(pages.get(n)!);
      rows.push({
        name: `history page, ${n / 500}× (${n.toLocaleString('en-US')} messages): median`,
        ours: ms(m),
        peer: ms(flat),
        ratio: m / flat,
        target: '≤ 2× the 1× page',
        pass: m / flat <= 2,
        scale: { series: 'history: median page', factor: n / 500, value: m },
      });
    }
    return rows;
  } finally {
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The app process's memory (docs/performance.md "Performance targets": at rest and after opening a 50,000-message
 * session, under 200 MB): the resident set of `node out/main/web.js` itself (bench/web-process.ts reads
 * /proc/<pid>/status), never the bench's own process.
 * - at rest: 3 s after its background warm-up began (WARM_UP_DELAY_MS after it listens; the bash grammar loaded and
 *   warmed, the AI SDK and the shell runner loaded);
 * - after opening the session through the bridge (the WebSocket, as a page does: the session list, then the newest
 *   page of history);
 * - after paging that session to the top, 100 messages a call (every message and tool card read once).
 * Scale: the same three on sessions of 500, 5,000 and 50,000 messages (one fresh process each, one after another).
 * `--quick`: 500 and 5,000 only, their two processes side by side (each waits 5 s at rest; the run only proves the
 * path works).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCore } from '../src/main/core/index';
import { WARM_UP_DELAY_MS } from '../src/main/core/warm-up';
import { seedSession } from './seed-session';
import type { BenchOptions, BenchRow } from './table';
import { builtWebEntry, startWebProcess } from './web-process';

const LIMIT_MB = 200;
const mb = (value: number) => `${value.toFixed(0)} MB`;

async function measure(dataDir: string, sessionId: number): Promise<{ rest: number; opened: number; paged: number }> {
  const web = await startWebProcess(dataDir);
  try {
    await new Promise((resolve) => setTimeout(resolve, WARM_UP_DELAY_MS + 3_000));
    const rest = web.rssMb();
    await web.call('chat:listSessions', {});
    let page = (await web.call('chat:history', { sessionId })) as { messages: { id: number }[]; hasMore: boolean };
    const opened = web.rssMb();
    while (page.hasMore)
      page = (await web.call('chat:history', { sessionId, beforeId: page.messages[0]!.id, limit: 100 })) as typeof page;
    const paged = web.rssMb();
    return { rest, opened, paged };
  } finally {
    await web.stop();
  }
}

export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  builtWebEntry();
  const sizes = quick ? [500, 5_000] : [500, 5_000, 50_000];
  const root = mkdtempSync(join(tmpdir(), 'skald-bench-memory-'));
  const rows: BenchRow[] = [];
  try {
    const seeded: { size: number; dataDir: string; sessionId: number }[] = [];
    for (const size of sizes) {
      const dataDir = join(root, `d${size}`);
      const seed = await createCore({
        dataDir,
        workspaceDir: join(dataDir, 'workspace'),
        shape: 'web',
        version: 'bench',
      });
      seeded.push({ size, dataDir, sessionId: seedSession(seed.db, size, `bench ${size}`) });
      await seed.dispose();
    }
    const measured: Awaited<ReturnType<typeof measure>>[] = [];
    if (quick) measured.push(...(await Promise.all(seeded.map((s) => measure(s.dataDir, s.sessionId)))));
    else for (const s of seeded) measured.push(await measure(s.dataDir, s.sessionId));
    for (const [i, { size }] of seeded.entries()) {
      const m = measured[i]!;
      const label = `${size.toLocaleString('en-US')} messages`;
      const point = (what: string, value: number): BenchRow => ({
        name: `web shape RSS ${what} (${label})`,
        ours: mb(value),
        peer: `< ${LIMIT_MB} MB`,
        target: `< ${LIMIT_MB} MB`,
        pass: value < LIMIT_MB,
        scale: { series: `web shape RSS ${what}`, factor: size / 500, value },
      });
      rows.push(
        point('at rest', m.rest),
        point('after opening the session', m.opened),
        point('after paging it to the top', m.paged),
      );
      if (size === sizes.at(-1)) {
        rows.push(
          {
            name: `web shape RSS at rest (app process, data folder with a ${label} session)`,
            ours: mb(m.rest),
            peer: `< ${LIMIT_MB} MB`,
            target: `< ${LIMIT_MB} MB`,
            pass: m.rest < LIMIT_MB,
          },
          {
            name: `web shape RSS after opening a ${label} session through the bridge`,
            ours: mb(m.opened),
            peer: `< ${LIMIT_MB} MB`,
            target: `< ${LIMIT_MB} MB`,
            pass: m.opened < LIMIT_MB,
          },
          {
            name: `web shape RSS after paging that session to the top`,
            ours: mb(m.paged),
            peer: `< ${LIMIT_MB} MB`,
            target: `< ${LIMIT_MB} MB`,
            pass: m.paged < LIMIT_MB,
          },
        );
      }
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

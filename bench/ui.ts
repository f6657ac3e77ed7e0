/**
 * UI benchmarks in Chromium against the web shape (SPEC.md §6):
 * - a 5,000-message session opens (history call + first paint of the newest rows) in under 300 ms;
 * - scrolling it from bottom to top has no long task over 50 ms;
 * - 2,000 streamed tokens a second reach the screen without falling behind (lag at the end under 100 ms).
 * The core runs in this process so the bench can seed the database and drive events at a fixed rate.
 */
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../e2e/chromium';
import { createCore } from '../src/main/core/index';
import { SessionStore } from '../src/main/core/session/session-store';
import { startWebServer } from '../src/main/web/server';
import { ms, type BenchRow } from './table';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export async function run(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-ui-'));
  const core = await createCore({ dataDir: join(dir, 'data'), workspaceDir: join(dir, 'ws'), shape: 'web', version: 'bench' });
  const store = new SessionStore(core.db);
  const sessionId = store.createSession('bench: 5,000 messages');
  core.db.transaction(() => {
    for (let i = 0; i < 5_000; i++) {
      store.appendMessage({ sessionId, role: i % 2 ? 'assistant' : 'user', content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(1 + (i % 7))}` });
    }
  })();
  const streamSession = store.createSession('bench: streaming');
  const server = await startWebServer({ core, rendererDir: join(process.cwd(), 'out/renderer'), log: () => {} });
  const browser = await chromium.launch({ executablePath: findChromium(), args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    await page.getByTestId('session-item').first().waitFor();

    // Open: click the big session, time until its newest message is on screen.
    const openMs: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.getByText('bench: streaming').click();
      await page.getByTestId('chat').waitFor();
      const started = Date.now();
      await page.getByText('bench: 5,000 messages').click();
      await page.getByText('Message 4999:').waitFor();
      openMs.push(Date.now() - started);
    }
    const openMedian = [...openMs].sort((a, b) => a - b)[2]!;

    // Scroll from the bottom to the top in steps, recording long tasks.
    const longest = await page.evaluate(async () => {
      let worst = 0;
      const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => (worst = Math.max(worst, e.duration))));
      observer.observe({ type: 'longtask', buffered: false });
      const list = document.querySelector('[data-testid="message-list"]')!;
      for (let y = list.scrollHeight; y > 0; y -= 1_500) {
        list.scrollTop = y;
        await new Promise((r) => requestAnimationFrame(() => r(null)));
      }
      await new Promise((r) => setTimeout(r, 200));
      observer.disconnect();
      return worst;
    });

    // Stream 2,000 tokens/s for 3 s into the open streaming session; measure how far the screen lags.
    await page.getByText('bench: streaming').click();
    await page.getByTestId('composer').waitFor();
    const tokens = 6_000;
    const started = Date.now();
    for (let i = 0; i < tokens; i++) {
      core.events.emit('chat', { type: 'text_delta', session_id: streamSession, round: 1, delta: `t${i} ` });
      if (i % 20 === 19) await new Promise((r) => setTimeout(r, Math.max(0, started + (i * 1000) / 2_000 - Date.now())));
    }
    const sentAt = Date.now();
    await page.getByText(`t${tokens - 1}`, { exact: false }).waitFor({ timeout: 10_000 });
    const lag = Date.now() - sentAt;
    const rate = tokens / ((sentAt - started) / 1000);

    return [
      { name: '5,000-message session opens (median of 5)', ours: ms(openMedian), peer: '< 300 ms', target: '< 300 ms', pass: openMedian < 300 },
      { name: 'scroll 5,000 messages: longest task', ours: ms(longest), peer: '< 50 ms', target: '< 50 ms', pass: longest < 50 },
      { name: `stream ${rate.toFixed(0)} tokens/s: screen lag at end`, ours: ms(lag), peer: '< 100 ms', target: '2,000 tok/s, lag < 100 ms', pass: lag < 100 && rate >= 1_900 },
    ];
  } finally {
    await browser.close();
    await server.close();
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}


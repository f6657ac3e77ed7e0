/**
 * UI benchmarks in Chromium against the web shape (docs/architecture.md "Performance targets"):
 * - a 5,000-message session opens (history call + first paint of the newest rows) in under 300 ms;
 * - scrolling it from bottom to top has no long task over 50 ms;
 * - 2,000 streamed tokens a second of Markdown reach the screen, rendered as Markdown while they stream, without
 *   falling behind (lag at the end under 100 ms) and without a long task (the open block alone is re-rendered).
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
    // tsx compiles with keepNames, which wraps functions passed to page.evaluate in a `__name` helper.
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
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

    // Scroll from the bottom to the very top (older pages load as it nears the top), recording long tasks.
    const scroll = await page.evaluate(async () => {
      if (!PerformanceObserver.supportedEntryTypes.includes('longtask')) return { worst: Number.NaN, seen: '' };
      let worst = 0;
      const observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => (worst = Math.max(worst, e.duration))));
      observer.observe({ type: 'longtask', buffered: false });
      const list = document.querySelector('[data-testid="message-list"]')!;
      const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
      for (let step = 0; step < 2_000 && !document.body.textContent!.includes('Message 0:'); step++) {
        list.scrollTop = Math.max(0, list.scrollTop - 1_200);
        await frame();
      }
      await new Promise((r) => setTimeout(r, 200));
      observer.disconnect();
      return { worst, seen: document.body.textContent!.includes('Message 0:') ? 'top' : 'not top' };
    });
    const longest = scroll.worst;

    // Stream 2,000 tokens/s for 3 s of real Markdown (bold, code spans, paragraphs, lists, a fenced block every
    // 1,500 tokens) into the open streaming session; the reply is rendered as Markdown while it streams. Measure
    // how far the screen lags behind the last token, and the longest main-thread task meanwhile.
    await page.getByText('bench: streaming').click();
    await page.getByTestId('composer').waitFor();
    const tokens = 6_000;
    const delta = (i: number) => {
      let d = i % 7 === 3 ? `**t${i}** ` : i % 11 === 5 ? `\`t${i}\` ` : `t${i} `;
      if (i % 60 === 59) d += '\n\n';
      if (i % 300 === 299) d += '- one item\n- another item\n\n';
      if (i % 1_500 === 1_499) d += '```ts\nexport const answer: number = 42; // highlighted\n```\n\n';
      return d;
    };
    // The page notes when the last token is on screen (a MutationObserver, not Playwright's polling).
    await page.evaluate((last) => {
      const w = window as unknown as { lastTokenAt?: number; worstTask?: number };
      w.worstTask = 0;
      if (PerformanceObserver.supportedEntryTypes.includes('longtask')) {
        new PerformanceObserver((list) => list.getEntries().forEach((e) => (w.worstTask = Math.max(w.worstTask!, e.duration)))).observe({ type: 'longtask' });
      }
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid="streaming"]')?.textContent?.includes(last)) {
          w.lastTokenAt = Date.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    }, `t${tokens - 1}`);
    const started = Date.now();
    let lastEmitAt = 0;
    for (let i = 0; i < tokens; i++) {
      core.events.emit('chat', { type: 'text_delta', session_id: streamSession, round: 1, delta: delta(i) });
      lastEmitAt = Date.now();
      if (i % 50 === 49) await new Promise((r) => setTimeout(r, Math.max(0, started + ((i + 1) * 1000) / 2_000 - Date.now())));
    }
    await page.waitForFunction(() => (window as unknown as { lastTokenAt?: number }).lastTokenAt !== undefined, undefined, { timeout: 10_000 });
    const lag = (await page.evaluate(() => (window as unknown as { lastTokenAt: number }).lastTokenAt)) - lastEmitAt;
    const rate = tokens / ((lastEmitAt - started) / 1000);
    const rendered = await page.evaluate(() => {
      const el = document.querySelector('[data-testid="streaming"]')!;
      return { strong: el.querySelectorAll('strong').length, li: el.querySelectorAll('li').length, code: el.querySelectorAll('pre code').length };
    });
    const isMarkdown = rendered.strong > 500 && rendered.li > 20 && rendered.code >= 3;
    const worstTask = await page.evaluate(() => (window as unknown as { worstTask: number }).worstTask);

    return [
      { name: '5,000-message session opens (median of 5)', ours: ms(openMedian), peer: '< 300 ms', target: '< 300 ms', pass: openMedian < 300 },
      { name: `scroll 5,000 messages to the ${scroll.seen}: longest task`, ours: ms(longest), peer: '< 50 ms', target: '< 50 ms', pass: longest < 50 && scroll.seen === 'top' },
      {
        name: `stream ${rate.toFixed(0)} tokens/s of Markdown, rendered as it streams: screen lag at end`, ours: ms(lag), peer: '< 100 ms',
        target: '2,000 tok/s, lag < 100 ms', pass: lag < 100 && rate >= 1_950 && isMarkdown,
      },
      { name: 'stream of Markdown: longest main-thread task over 50 ms (0 = none)', ours: ms(worstTask), peer: '< 50 ms', target: '< 50 ms', pass: worstTask < 50 && isMarkdown },
    ];
  } finally {
    await browser.close();
    await server.close();
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}


/**
 * Start to a usable window, web shape (docs/performance.md "Performance targets"): `node out/main/web.js` spawned on
 * a data folder a person has used (a model set up, a session of 200 messages), with Chromium already running and
 * idle, a page open, as a browser is (the page's new window costs Chromium about 2.5 s of CPU of its own for 1.5 s
 * after it opens: the spawn waits for that to end, bench/chromium-idle.ts): from the spawn (bench/web-process.ts, the same spawn as the start rows of bench/core-start.ts) until
 * the page at the printed URL shows the session's newest message and the composer, painted. The time is taken on
 * one clock (the page's Date.now() against the spawn's), and the page is loaded fresh each time (no warm renderer).
 * Median of 5 spawns (1 with `--quick`); each process is stopped before the next starts.
 */
import { chromium, type Browser } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../e2e/chromium';
import { waitForChromiumIdle } from './chromium-idle';
import { createCore } from '../src/main/core/index';
import { median, ms, type BenchOptions, type BenchRow } from './table';
import { CHROMIUM_ARGS, configureModel } from './ui';
import { seedSession } from './seed-session';
import { markdownAnswer, newestMarker } from './ui-seed';
import { builtWebEntry, startWebProcess } from './web-process';

const MESSAGES = 200;

interface Spawned {
  /** Spawn → the URL line, ms. */
  listening: number;
  /** Spawn → the chat ready and painted in the page, ms. */
  ready: number;
}

async function spawnOnce(browser: Browser, dataDir: string): Promise<Spawned> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await waitForChromiumIdle();
  const web = await startWebProcess(dataDir);
  try {
    await page.goto(web.url, { waitUntil: 'commit' });
    // Ready: the newest message in view and the composer there, then one painted frame; the time is taken in the page.
    const readyAt = await page.evaluate(async (marker) => {
      const isReady = () => {
        const list = document.querySelector('[data-testid="message-list"]');
        const row = [...(list?.querySelectorAll('.msg') ?? [])].find((m) => m.textContent?.includes(marker));
        if (!list || !row || !document.querySelector('[data-testid="composer"]')) return false;
        const [box, r] = [list.getBoundingClientRect(), row.getBoundingClientRect()];
        return r.bottom > box.top && r.top < box.bottom;
      };
      await new Promise<void>((resolve) => {
        const check = () => {
          if (!isReady()) return;
          observer.disconnect();
          resolve();
        };
        const observer = new MutationObserver(check);
        observer.observe(document, { childList: true, subtree: true, characterData: true });
        check();
      });
      await new Promise<void>((resolve) =>
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(0);
        }),
      );
      return Date.now();
    }, newestMarker(MESSAGES));
    return { listening: web.spawnToListening, ready: readyAt - web.startedAt };
  } finally {
    await page.close();
    await web.stop();
  }
}

export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  builtWebEntry(); // fails early on a stale build
  const dataDir = mkdtempSync(join(tmpdir(), 'skald-bench-web-start-'));
  const seed = await createCore({ dataDir, workspaceDir: join(dataDir, 'workspace'), shape: 'web', version: 'bench' });
  await configureModel(seed);
  seedSession(seed.db, MESSAGES, 'bench: returning session', markdownAnswer);
  await seed.dispose();
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const warm = await browser.newPage();
    await warm.close();
    const runs: Spawned[] = [];
    for (let i = 0; i < (quick ? 1 : 5); i++) runs.push(await spawnOnce(browser, dataDir));
    const listening = median(runs.map((r) => r.listening));
    const ready = median(runs.map((r) => r.ready));
    return [
      {
        name: `web shape start: process start → first page's chat ready in Chromium (idle, a page open; newest of ${MESSAGES} messages and the composer painted; listening after ${ms(listening)}; median of ${runs.length})`,
        ours: ms(ready),
        peer: '< 1,000 ms',
        target: '< 1 s',
        pass: ready < 1_000,
      },
    ];
  } finally {
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

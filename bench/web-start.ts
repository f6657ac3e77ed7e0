/**
 * Start to a usable window, web shape (docs/performance.md "Performance targets"): `node out/main/web.js` spawned,
 * with Chromium already running and idle, a page open, as a browser is (the page's new window costs Chromium about
 * 2.5 s of CPU of its own for 1.5 s after it opens: the spawn waits for that to end, bench/chromium-idle.ts): from the
 * spawn (bench/web-process.ts, the same spawn as the start rows of bench/core-start.ts) until the page at the printed
 * URL is usable, painted. Two data folders, as bench/core-start.ts's rows:
 * - one a person has used (a model set up, a session of 200 messages): usable when the session's newest message and
 *   the composer are shown;
 * - a fresh one (a new folder each spawn: the database created, every migration run): usable when the first-run page
 *   (components/FirstRunGuide.tsx, shown while no model is set up) shows its first step's provider choices.
 * The time is taken on one clock (the page's Date.now() against the spawn's), by a watcher the page runs before its
 * own scripts (so it is the page's time, not when the bench got to ask), and the page is loaded fresh each time
 * (no warm renderer). Median of 5 spawns of each, in turn (1 with `--quick`); each process is stopped before the next
 * starts.
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

/** What the page must show to be usable: the used folder's chat (its newest message by `marker`), or the first run. */
type Usable = { chat: string } | 'first-run';

/**
 * Runs in the page before any of its own scripts (an init script): watches the document until it is usable, then
 * takes the time after one painted frame, in `window.__usableAt`. Installed before the page loads, so the time is
 * the page's own, not when Playwright's evaluate got to run on a busy page (it ran after the app's long tasks and,
 * under load, hundreds of ms after the page was ready).
 */
function watchUsable(marker: string | null): void {
  const inView = (e: Element) => {
    const r = e.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight && r.width > 0;
  };
  const isReady = () => {
    if (marker === null) {
      // The first run's first step: its provider choices there (the first-run page is loaded lazily).
      const choice = document.querySelector('[data-testid="first-run"] [data-testid="fr-kind-anthropic"]');
      return choice !== null && inView(choice.closest('label') ?? choice);
    }
    const list = document.querySelector('[data-testid="message-list"]');
    const row = [...(list?.querySelectorAll('.msg') ?? [])].find((m) => m.textContent?.includes(marker));
    if (!list || !row || !document.querySelector('[data-testid="composer"]')) return false;
    const [box, r] = [list.getBoundingClientRect(), row.getBoundingClientRect()];
    return r.bottom > box.top && r.top < box.bottom;
  };
  const check = () => {
    if (!isReady()) return;
    observer.disconnect();
    // One painted frame after it is in the document: the next task after the frame's paint.
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => ((window as unknown as { __usableAt: number }).__usableAt = Date.now());
      channel.port2.postMessage(0);
    });
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

async function spawnOnce(browser: Browser, dataDir: string, usable: Usable): Promise<Spawned> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.addInitScript(watchUsable, usable === 'first-run' ? null : usable.chat);
  await waitForChromiumIdle();
  const web = await startWebProcess(dataDir);
  try {
    await page.goto(web.url, { waitUntil: 'commit' });
    // Ready: the newest message in view and the composer there (or the first run's choices), then one painted frame;
    // the time is taken in the page, by the watcher installed before it loaded.
    const readyAt = (await (
      await page.waitForFunction(() => (window as unknown as { __usableAt?: number }).__usableAt, null, {
        polling: 50,
        timeout: 60_000,
      })
    ).jsonValue()) as number;
    return { listening: web.spawnToListening, ready: readyAt - web.startedAt };
  } finally {
    await page.close();
    await web.stop();
  }
}

export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  builtWebEntry(); // fails early on a stale build
  const dataDir = mkdtempSync(join(tmpdir(), 'skald-bench-web-start-'));
  const freshRoot = mkdtempSync(join(tmpdir(), 'skald-bench-web-start-fresh-'));
  const seed = await createCore({ dataDir, workspaceDir: join(dataDir, 'workspace'), shape: 'web', version: 'bench' });
  await configureModel(seed);
  seedSession(seed.db, MESSAGES, 'bench: returning session', markdownAnswer);
  await seed.dispose();
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const warm = await browser.newPage();
    await warm.close();
    const used: Spawned[] = [];
    const fresh: Spawned[] = [];
    const chat = { chat: newestMarker(MESSAGES) };
    for (let i = 0; i < (quick ? 1 : 5); i++) {
      used.push(await spawnOnce(browser, dataDir, chat));
      fresh.push(await spawnOnce(browser, join(freshRoot, String(i)), 'first-run'));
    }
    const row = (runs: Spawned[], label: string): BenchRow => {
      const ready = median(runs.map((r) => r.ready));
      const listening = median(runs.map((r) => r.listening));
      return {
        name: `web shape start, ${label} (Chromium idle, a page open; listening after ${ms(listening)}; median of ${runs.length})`,
        ours: ms(ready),
        peer: '< 1,000 ms',
        target: '< 1 s',
        pass: ready < 1_000,
      };
    };
    return [
      row(
        used,
        `data folder in use: process start → its chat ready in Chromium (newest of ${MESSAGES} messages and the composer painted)`,
      ),
      row(
        fresh,
        "fresh data folder: process start → the first-run page ready in Chromium (its first step's provider choices painted)",
      ),
    ];
  } finally {
    await browser.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(freshRoot, { recursive: true, force: true });
  }
}

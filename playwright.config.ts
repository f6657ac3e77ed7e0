/**
 * E2E tests drive the real renderer in Chromium (docs/architecture.md "Tests"), in two projects: `web`, every spec
 * against the web shape; `desktop`, the chat, approval and viewer specs and the desktop checks against the real built
 * main and preload bundles under the Electron stand-in (docs/desktop.md "The desktop shape run end to end"). The browser
 * is CHROMIUM_PATH, an installed Chrome/Chromium, or Playwright's own (e2e/chromium.ts); `npm test` fetches
 * Playwright's first when none is there, and without any the run stops with one line saying what to install.
 */
import { defineConfig } from '@playwright/test';
import { findChromium } from './e2e/chromium';
import type { Shape } from './e2e/fixtures';

/** The specs that run in both shapes; `desktop.spec.ts` runs in the desktop shape only. */
const BOTH_SHAPES = ['chat.spec.ts', 'approval-preview.spec.ts', 'viewer.spec.ts', 'viewer-live.spec.ts'];

export default defineConfig<{ shape: Shape }>({
  testDir: 'e2e',
  timeout: 60_000,
  // An assertion waits for what the app does next (a reply streamed through the scripted LLM, a tool's worker, a PDF
  // parsed): on a loaded 2-core machine that can take longer than Playwright's default 5 s. The wait ends as soon as
  // the assertion holds, so a passing run takes no longer; one that never holds still fails.
  expect: { timeout: 15_000 },
  // Three workers, even on two cores. Each test starts its own app on a fresh data folder and a free port
  // (e2e/fixtures.ts), so nothing is shared between workers but the machine; and a test waits much of its time (on its
  // app, the scripted LLM, a browser's frames): on one worker the e2e ran 16 minutes using under half a core, on two
  // beside vitest 10 minutes, the last step to end (README "Running the tests"). Tests that waited on the app's timing
  // with the cores busy were made to wait on what the app shows instead (a jump in a large Markdown file, a radio
  // picked through its label, a re-run's approval after a restart).
  workers: 3,
  // A test that fails is run once more, and one that passes then is reported as flaky by name in the summary: on a
  // loaded machine a slow frame must not fail the whole run, and a test that fails twice still fails it.
  retries: 1,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    launchOptions: {
      executablePath: findChromium(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'web', use: { shape: 'web' }, testIgnore: ['desktop.spec.ts'] },
    { name: 'desktop', use: { shape: 'desktop' }, testMatch: [...BOTH_SHAPES, 'desktop.spec.ts'] },
  ],
});

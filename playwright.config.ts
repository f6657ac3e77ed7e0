/**
 * E2E tests drive the real renderer in Chromium against the web shape (SPEC.md §5). Chromium comes from
 * CHROMIUM_PATH, then /usr/bin/chromium, then Playwright's own download; without any, the run fails saying how
 * to install one (`npx playwright install` cannot work on machines without internet).
 */
import { defineConfig } from '@playwright/test';
import { findChromium } from './e2e/chromium';

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  workers: 1,
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
});

/**
 * E2E tests drive the real renderer in Chromium against the web shape (docs/architecture.md "Tests"). The browser
 * is CHROMIUM_PATH, an installed Chrome/Chromium, or Playwright's own (e2e/chromium.ts); `npm test` fetches
 * Playwright's first when none is there, and without any the run stops with one line saying what to install.
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

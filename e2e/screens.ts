/**
 * Screenshots of one screen in both themes: the app follows the system theme, so emulating the colour scheme
 * switches it live (docs/ui.md). Saved under e2e/screenshots/ (git-ignored) as `<name>-light.png` / `-dark.png`.
 */
import type { Page } from '@playwright/test';
import { screenshotPath } from './fixtures';

export async function shots(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, colorScheme);
    await page.screenshot({ path: screenshotPath(`${name}-${colorScheme}`), fullPage: options.fullPage ?? false });
  }
  await page.emulateMedia({ colorScheme: null });
}

/**
 * Screenshots of one screen in both themes: the app follows the system theme, so emulating the colour scheme
 * switches it live (docs/ui.md). Saved under e2e/screenshots/ (git-ignored) as `<name>-light.png` / `-dark.png`.
 */
import type { Page } from '@playwright/test';
import { expect, screenshotPath } from './fixtures';

export async function shots(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.waitForFunction((t) => document.documentElement.dataset.theme === t, colorScheme);
    await page.screenshot({ path: screenshotPath(`${name}-${colorScheme}`), fullPage: options.fullPage ?? false });
  }
  await page.emulateMedia({ colorScheme: null });
}

/** Settings' sections and the Security page's tabs, by the ids their elements carry (`settings-<id>`, `tab-<id>`). */
export const SETTINGS_SECTIONS = [
  'general',
  'checkpoints',
  'providers',
  'models',
  'sandbox',
  'mcp',
  'plugins',
  'secrets',
];
export const SECURITY_TABS = ['rules', 'files', 'test', 'bypasses', 'log'];

/** Opens Settings and brings each section to the top of the page in turn, calling `visit` with it. */
export async function eachSettingsSection(page: Page, visit: (id: string) => Promise<void>): Promise<void> {
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('settings')).toBeVisible();
  for (const id of SETTINGS_SECTIONS) {
    await page.evaluate((s) => document.getElementById(`settings-${s}`)?.scrollIntoView({ block: 'start' }), id);
    await visit(id);
  }
}

/**
 * A visual sweep of the screens outside the chat (docs/ui.md): every Settings section, every Security tab, Schedules
 * and the Inbox, empty and then with something in them, each in light and dark (e2e/screens.ts). Settings is shown
 * once before and once after the Security page has been opened, whose lazily loaded styles must not change it.
 */
import type { Page } from '@playwright/test';
import { callBridge, expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { eachSettingsSection, SECURITY_TABS, shots } from './screens';
import { configureModel } from './scripted-llm';

let app: WebApp;
test.beforeEach(async () => {
  app = await startWebApp();
});
test.afterEach(async () => {
  await stopWebApp(app);
});

const settingsSections = (page: Page, prefix: string) =>
  eachSettingsSection(page, (id) => shots(page, `${prefix}-${id}`));

test('every screen outside the chat, empty and filled, in both themes', async ({ page }) => {
  await page.goto(app.url);
  await expect(page.getByTestId('first-run')).toBeVisible();
  await settingsSections(page, 'sweep-settings-empty');
  const theme = page.getByRole('radiogroup', { name: 'Theme' });
  const themeBox = async () =>
    Promise.all(['system', 'light', 'dark'].map((t) => theme.getByTestId(`theme-${t}`).boundingBox()));

  await page.getByTestId('open-security').click();
  await expect(page.getByTestId('rule-row').first()).toBeVisible();
  for (const tab of SECURITY_TABS) {
    const button = page.getByTestId(`tab-${tab}`);
    if ((await button.count()) === 0) continue;
    await button.click();
    await shots(page, `sweep-security-${tab}-empty`);
  }
  await page.getByTestId('open-schedules').click();
  await expect(page.getByTestId('schedules-page')).toBeVisible();
  await shots(page, 'sweep-schedules-empty');
  await page.getByTestId('open-inbox').click();
  await expect(page.getByTestId('inbox')).toContainText('Nothing is waiting for you.');
  await shots(page, 'sweep-inbox-empty');
  await page.getByTestId('inbox').getByRole('button', { name: 'Close' }).click();

  // Filled: a provider with a model, a stored secret; Settings after the Security page's styles have loaded.
  await configureModel(page, 'http://127.0.0.1:9');
  await callBridge(page, 'secrets:set', { key: 'github.token', value: 'sweep-SECRET' });
  await page.reload();
  await settingsSections(page, 'sweep-settings-filled');
  // The theme's radios sit beside their labels, on one line, whatever styles are loaded.
  const boxes = await themeBox();
  expect(new Set(boxes.map((b) => Math.round(b!.y))).size).toBe(1);
  await page.getByTestId('open-security').click();
  await page.getByTestId('open-settings').click();
  expect((await themeBox()).map((b) => Math.round(b!.x))).toEqual(boxes.map((b) => Math.round(b!.x)));
  await shots(page, 'sweep-settings-general-after-security');
});

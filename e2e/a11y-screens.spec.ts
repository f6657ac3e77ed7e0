/**
 * axe on every screen outside the chat's cards, in both themes (docs/ui.md "Accessibility"; e2e/axe.ts): each step
 * of the first run, every Settings page, every Security tab, Schedules, the Inbox and the session switcher, empty
 * and then with something in them. A serious or critical violation fails the test.
 */
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { callBridge, expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { startLlmProcess, type LlmProcess } from './scripted-llm';

let app: WebApp;
let llm: LlmProcess | undefined;
test.beforeEach(async () => {
  app = await startWebApp();
});
test.afterEach(async () => {
  llm?.stop();
  llm = undefined;
  await stopWebApp(app);
});

const SECTIONS = ['general', 'providers', 'models', 'mcp', 'plugins', 'secrets'];
const TABS = ['rules', 'files', 'test', 'bypasses', 'log'];

async function settingsPages(page: Page, when: string): Promise<void> {
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('settings')).toBeVisible();
  for (const id of SECTIONS) {
    await page.evaluate((s) => document.getElementById(`settings-${s}`)?.scrollIntoView({ block: 'start' }), id);
    await expectAccessible(page, `Settings → ${id} (${when})`);
  }
}

async function securityTabs(page: Page, when: string): Promise<void> {
  await page.getByTestId('open-security').click();
  await expect(page.getByTestId('rule-row').first()).toBeVisible();
  for (const tab of TABS) {
    await page.getByTestId(`tab-${tab}`).click();
    await expectAccessible(page, `Security → ${tab} (${when})`);
  }
}

test('the first run, step by step, in both themes', async ({ page }) => {
  test.setTimeout(120_000);
  llm = await startLlmProcess(app.dataDir, [{ text: 'Hello.' }]);
  await page.goto(app.url);
  const guide = page.getByTestId('first-run');
  await expect(guide).toBeVisible();
  await expectAccessible(page, 'first run: provider');
  await guide.getByTestId('fr-kind-openai_compatible').check({ force: true });
  await guide.getByTestId('fr-url').fill(`${llm.url}/v1`);
  await expectAccessible(page, 'first run: provider with an address');
  await guide.getByTestId('fr-next').click();
  await guide.getByTestId('fr-key').fill('sk-a11y');
  await guide.getByTestId('fr-test').click();
  await expect(guide.getByTestId('probe-result')).toHaveAttribute('data-ok', 'true');
  await expectAccessible(page, 'first run: key tested');
  await guide.getByTestId('fr-next').click();
  await expect(guide.getByTestId('fr-model-choice')).toBeChecked();
  await expectAccessible(page, 'first run: model');
  await guide.getByTestId('fr-next').click();
  await expectAccessible(page, 'first run: folder');
  await guide.getByTestId('fr-finish').click();
  await expect(guide.getByTestId('fr-suggestion').first()).toBeVisible();
  await expectAccessible(page, 'first run: done');
});

test('Settings, Security, Schedules, the Inbox and the switcher, empty and filled, in both themes', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto(app.url);
  await expect(page.getByTestId('first-run')).toBeVisible();
  await settingsPages(page, 'empty');
  await securityTabs(page, 'empty');
  await page.getByTestId('open-schedules').click();
  await expect(page.getByTestId('schedules-page')).toBeVisible();
  await expectAccessible(page, 'Schedules (empty)');
  await page.getByTestId('open-inbox').click();
  await expect(page.getByTestId('inbox')).toContainText('Nothing is waiting for you.');
  await expectAccessible(page, 'Inbox (empty)');
  await page.getByTestId('inbox').getByRole('button', { name: 'Close' }).click();

  // Filled: a provider and a model, a secret, a second group, a schedule, a second chat.
  llm = await startLlmProcess(app.dataDir, [{ text: 'Hello.' }]);
  const { provider } = await callBridge<{ provider: { id: number } }>(page, 'providers:create', {
    kind: 'openai_compatible',
    name: 'scripted',
    baseUrl: `${llm.url}/v1`,
    apiKey: 'test-key',
  });
  await callBridge(page, 'models:create', { providerId: provider.id, modelId: 'scripted-1' });
  await callBridge(page, 'secrets:set', { key: 'github.token', value: 'a11y-SECRET' });
  await page.reload();
  await settingsPages(page, 'filled');
  await securityTabs(page, 'filled');
  await page.getByTestId('open-schedules').click();
  await expect(page.getByTestId('schedules-page')).toBeVisible();
  await expectAccessible(page, 'Schedules (filled)');
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('composer').fill('Say hello');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hello.');
  await expectAccessible(page, 'chat with a reply');
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('session-switcher')).toBeVisible();
  await expectAccessible(page, 'session switcher');
  await page.getByTestId('session-switcher').getByRole('combobox').fill('hello');
  await expectAccessible(page, 'session switcher with a search');
});

test("with less motion asked for, the app's animations and transitions are stilled", async ({ page }) => {
  await page.goto(app.url);
  await expect(page.getByTestId('first-run')).toBeVisible();
  // One element of each animated kind, as the app draws it (styles.css, agents.css): their longest animation or
  // transition, in seconds.
  const longest = () =>
    page.evaluate(() => {
      const host = document.createElement('div');
      host.innerHTML = `
        <div class="retry-bar"></div><span class="reconnecting-dot"></span><span class="subagent-spinner"></span>
        <div class="row row-found"><div class="msg"></div></div>
        <div class="msg"><div class="msg-usage"><button class="copy-button">Copy</button></div></div>`;
      document.body.append(host);
      const seconds = (value: string) => Math.max(...value.split(',').map((v) => Number.parseFloat(v) || 0));
      const all = [...host.querySelectorAll('*')].flatMap((el) => {
        const style = getComputedStyle(el);
        return [seconds(style.animationDuration), seconds(style.transitionDuration)];
      });
      host.remove();
      return Math.max(...all);
    });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await longest()).toBeGreaterThan(0.1);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await longest()).toBeLessThan(0.001);
});

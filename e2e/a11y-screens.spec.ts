/**
 * axe on every screen outside the chat's cards, in both themes (docs/ui.md "Accessibility"; e2e/axe.ts): each step
 * of the first run, every Settings page, every Security tab, Schedules, the Inbox and the session switcher, empty
 * and then with something in them; and that less motion, asked for, stills every animation. Any violation fails the test
(e2e/axe.ts says which could be accepted, and none is).
 */
import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { callBridge, expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { pickOption } from './controls';
import { eachSettingsSection, SECURITY_TABS } from './screens';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

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

const settingsPages = (page: Page, when: string) =>
  eachSettingsSection(page, (id) => expectAccessible(page, `Settings → ${id} (${when})`));

async function securityTabs(page: Page, when: string): Promise<void> {
  await page.getByTestId('open-security').click();
  await expect(page.getByTestId('rule-row').first()).toBeVisible();
  for (const tab of SECURITY_TABS) {
    await page.getByTestId(`tab-${tab}`).click();
    await expectAccessible(page, `Security → ${tab} (${when})`);
  }
}

/**
 * The Security page's states beyond its tabs as they open: a rule's form with its command preview, a File system
 * row with its effect, the tester's answer and trace, a searched log, and a group showing the Default group's rules
 * below its own (read only).
 */
async function securityFilled(page: Page): Promise<void> {
  await securityTabs(page, 'filled');
  const rows = page.getByTestId('log-row');
  await expect(rows.first()).toBeVisible();
  const all = await rows.count();
  await page.getByTestId('log-search').fill('echo');
  await expect.poll(() => rows.count()).toBeLessThan(all);
  await expect(rows.first()).toContainText('echo');
  await expectAccessible(page, 'Security → log, searched');

  await page.getByTestId('tab-bypasses').click();
  await expect(page.getByTestId('bypass-row')).toHaveCount(1);
  await expectAccessible(page, 'Security → bypasses, one active');

  await page.getByTestId('tab-files').click();
  await page.getByTestId('fs-new-path').fill('notes/');
  await page.getByTestId('fs-new-level').selectOption('write');
  await page.getByTestId('fs-add').click();
  await expect(page.locator('[data-testid="fs-row"][data-path="notes/*"]')).toBeVisible();
  await expectAccessible(page, 'Security → files, a row added');

  await page.getByTestId('tab-test').click();
  await page.getByTestId('tester-tool').fill('read_file');
  await page.getByTestId('tester-path').fill('secrets/key.txt');
  await page.getByTestId('tester-run').click();
  await expect(page.getByTestId('tester-result')).toHaveAttribute('data-action', 'deny');
  await expectAccessible(page, 'Security → test, an answer');

  await page.getByTestId('tab-rules').click();
  await page.getByTestId('add-rule').click();
  const form = page.getByTestId('rule-form');
  await form.getByTestId('rule-tool').fill('execute_cmd');
  await form.getByTestId('rule-path').fill('mem*ory/x');
  await form.getByTestId('preview-command').fill('echo hi && rm -rf x');
  await expect(form.getByTestId('command-part')).toHaveCount(2);
  await form.getByTestId('save-rule').click();
  await expect(form.getByTestId('field-error-path_pattern')).toBeVisible();
  await expectAccessible(page, 'Security → rules, a new rule with a mistake and a command preview');
  await form.getByRole('button', { name: 'Cancel' }).click();

  await page.getByTestId('group-item').filter({ hasText: 'Client work' }).click();
  await page.locator('.fallback summary').click();
  await expect(page.locator('.fallback .rule-row').first()).toBeVisible();
  await expectAccessible(page, "Security → another group, with the Default group's rules below");
}

test('the first run, step by step, in both themes', async ({ page }) => {
  test.setTimeout(120_000);
  llm = await startLlmProcess(app.dataDir, [{ text: 'Hello.' }]);
  await page.goto(app.url);
  const guide = page.getByTestId('first-run');
  await expect(guide).toBeVisible();
  await expectAccessible(page, 'first run: provider');
  await pickOption(guide.getByTestId('fr-kind-openai_compatible'));
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

/** Schedules, once its page is in. */
async function schedulesChecked(page: Page, when: string): Promise<void> {
  await page.getByTestId('open-schedules').click();
  await expect(page.getByTestId('schedules-page')).toBeVisible();
  await expectAccessible(page, `Schedules (${when})`);
}

test('Settings, Security, Schedules, the Inbox and the switcher, empty and filled, in both themes', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto(app.url);
  await expect(page.getByTestId('first-run')).toBeVisible();
  await settingsPages(page, 'empty');
  await securityTabs(page, 'empty');
  await schedulesChecked(page, 'empty');
  await page.getByTestId('open-inbox').click();
  await expect(page.getByTestId('inbox')).toContainText('Nothing is waiting for you.');
  await expectAccessible(page, 'Inbox (empty)');
  await page.getByTestId('inbox').getByRole('button', { name: 'Close' }).click();

  // Filled: a provider and a model, a secret, a second group, a chat that saved a scheduled job and ran a command
  // approved with a bypass, a second chat.
  llm = await startLlmProcess(app.dataDir, [
    {
      match: 'every weekday',
      toolCalls: [
        {
          name: 'execute_task',
          arguments: {
            mode: 'cron',
            agent_id: 'software-engineer',
            title: 'Morning notes',
            prompt: 'Write the morning notes',
            cron: '0 30 8 * * 1-5',
          },
        },
      ],
    },
    { match: 'every weekday', text: 'Saved Morning notes.' },
    { match: 'Echo', toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo hi' } }] },
    { match: 'Echo', text: 'Echoed.' },
    { text: 'Hello.' },
  ]);
  await configureModel(page, llm.url);
  await callBridge(page, 'secrets:set', { key: 'github.token', value: 'a11y-SECRET' });
  await callBridge(page, 'approval:createGroup', { id: 'client-work', name: 'Client work' });
  await page.reload();
  await page.getByTestId('composer').fill('Write morning notes every weekday at 8:30');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Saved Morning notes.');
  await page.getByTestId('composer').fill('Echo hi');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('approval-card')).toBeVisible();
  // Approved with a bypass, as the card's "for 15 min" choice does.
  const { approvals } = await callBridge<{ approvals: { request_id: string; args_hash: string }[] }>(
    page,
    'inbox:list',
    {},
  );
  await callBridge(page, 'inbox:resolveApproval', {
    requestId: approvals[0]!.request_id,
    argsHash: approvals[0]!.args_hash,
    action: 'approve',
    note: '',
    bypassSecs: 900,
  });
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Echoed.');
  await page.getByTestId('new-session').click();
  await expect(page.getByTestId('session-item')).toHaveCount(2);
  await expect(page.getByTestId('msg-user')).toHaveCount(0);
  await page.getByTestId('composer').fill('Say hello');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hello.');
  await expectAccessible(page, 'chat with a reply');
  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('session-switcher')).toBeVisible();
  await expectAccessible(page, 'session switcher');
  await page.getByTestId('session-switcher').getByRole('combobox').fill('morning');
  await expect(page.getByTestId('switcher-hit').first()).toBeVisible();
  await expectAccessible(page, 'session switcher with a search');
  await page.keyboard.press('Escape');

  await settingsPages(page, 'filled');
  await securityFilled(page);
  await schedulesChecked(page, 'filled');
  const job = page.locator('[data-testid^="job-"].job-card');
  await job.getByTestId('job-enable').click();
  await expect(job.getByTestId('envelope')).toBeVisible();
  await expectAccessible(page, 'Schedules, a job about to be turned on');
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

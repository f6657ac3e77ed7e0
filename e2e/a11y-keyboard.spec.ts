/**
 * One whole task with the keyboard alone (docs/ui.md "Keyboard"), no click anywhere: the first run (provider,
 * key tested, model, folder), a message, an approval that arrives while the person types (announced, the focus
 * left in the message box), approved; the written file opened in the viewer from its card and back; a second write
 * rejected with a note the model then reads; a rule made from that decision in the Security page's decision log.
 * Every control reached shows its focus ring; screenshots of the focus states in both themes. Then a bypass chosen by
 * the arrows and a question answered; the dialogs: the Inbox and the session switcher keep the focus while open and
 * give it back on close; the MCP menu goes by arrows and gives the focus back to its button, or to the message box
 * with what it inserted. And a narrow window: the rail's chat list, the viewer over the chat put aside and back.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { callBridge, expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { expectFocusRing, pressTo, tabTo } from './keyboard';
import { shots } from './screens';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let app: WebApp;
let llm: LlmProcess;
test.beforeEach(async () => {
  app = await startWebApp();
});
test.afterEach(async () => {
  llm?.stop();
  await stopWebApp(app);
});

const announced = (page: Page) => page.getByTestId('live-announcer');

test('first run, an approval, a rejection with a note, the file in the viewer and a rule from the log, by keyboard', async ({
  page,
}) => {
  test.setTimeout(150_000);
  llm = await startLlmProcess(app.dataDir, [
    { match: 'hello', toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'Hello!\n' } }] },
    { match: 'hello', text: 'Wrote hello.txt.' },
    { match: 'draft', toolCalls: [{ name: 'write_file', arguments: { path: 'draft.txt', content: 'Draft\n' } }] },
    { match: 'draft', text: 'Understood, I will not write it.' },
  ]);
  await page.goto(app.url);
  const guide = page.getByTestId('first-run');
  await expect(guide).toBeVisible();

  // First run. The provider is a radio group: Tab reaches the chosen one, the arrows choose.
  await tabTo(page, guide.getByRole('radio', { checked: true }));
  await expectFocusRing(page);
  await shots(page, 'keyboard-01-first-run-provider');
  await pressTo(page, 'ArrowDown', guide.getByTestId('fr-kind-openai_compatible'));
  await expect(guide.getByTestId('fr-kind-openai_compatible')).toBeChecked();
  await tabTo(page, guide.getByTestId('fr-url'));
  await page.keyboard.type(`${llm.url}/v1`);
  await tabTo(page, guide.getByTestId('fr-next'));
  await expectFocusRing(page);
  await page.keyboard.press('Enter');
  await expect(guide.getByTestId('fr-key')).toBeFocused();
  await page.keyboard.type('sk-keyboard');
  await tabTo(page, guide.getByTestId('fr-test'));
  await page.keyboard.press('Enter');
  await expect(guide.getByTestId('probe-result')).toHaveAttribute('data-ok', 'true');
  await tabTo(page, guide.getByTestId('fr-next'));
  await page.keyboard.press('Enter');
  await expect(guide.getByTestId('fr-model')).toHaveValue('scripted-1');
  await tabTo(page, guide.getByTestId('fr-next'));
  await page.keyboard.press('Enter');
  await tabTo(page, guide.getByTestId('fr-finish'));
  await page.keyboard.press('Enter');
  await tabTo(page, guide.getByTestId('fr-skip'));
  await page.keyboard.press('Enter');
  await expect(guide).toHaveCount(0);

  // The chat: the first Tab stop skips the header and the chat list to the message box.
  const composer = page.getByTestId('composer');
  await tabTo(page, page.getByRole('link', { name: 'Skip to the message box' }));
  await expectFocusRing(page);
  await shots(page, 'keyboard-02-skip-link');
  await page.keyboard.press('Enter');
  await expect(composer).toBeFocused();
  await page.keyboard.type('Write hello.txt');
  await page.keyboard.press('Enter');
  // The person goes on typing while the approval arrives: it is announced, and the focus stays where they type.
  await page.keyboard.type('next I will ask');
  const card = page.locator('[data-testid="tool-card"][data-tool="write_file"]').first();
  await expect(card.getByTestId('approval-card')).toBeVisible();
  await expect(announced(page)).toContainText('write_file hello.txt, waiting for your approval.');
  await page.keyboard.type(' for a draft');
  await expect(composer).toBeFocused();
  await expect(composer).toHaveValue('next I will ask for a draft');
  await shots(page, 'keyboard-03-composer-while-approval-waits');

  // Approve once: back from the message box to the card's button.
  await tabTo(page, card.getByRole('button', { name: 'Approve once' }), { back: true });
  await expectFocusRing(page);
  await shots(page, 'keyboard-04-approve-focused');
  await page.keyboard.press('Enter');
  await expect(card).toHaveAttribute('data-status', 'done');
  // The answered card keeps the focus on its head, which says what the call is and how it ended.
  await expect(card.getByRole('button', { name: 'write_file hello.txt, done' })).toBeFocused();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Wrote hello.txt.');
  await expect(announced(page)).toContainText('The agent finished.');

  // The file in the viewer from the card's path, and Escape back to the card.
  await tabTo(page, card.getByTestId('tool-path'));
  await expectFocusRing(page);
  await page.keyboard.press('Enter');
  const viewerTab = page.getByRole('tab', { name: 'hello.txt' });
  await expect(viewerTab).toBeFocused();
  await expect(page.getByTestId('viewer-code')).toContainText('Hello!');
  await expectFocusRing(page);
  await shots(page, 'keyboard-05-viewer-tab-focused');
  await page.keyboard.press('Escape');
  await expect(card.getByTestId('tool-path')).toBeFocused();

  // A second write, rejected with a note.
  await tabTo(page, composer);
  await page.keyboard.press('Control+a');
  await page.keyboard.type('Write a draft');
  await page.keyboard.press('Enter');
  const second = page.locator('[data-testid="tool-card"][data-tool="write_file"]').nth(1);
  await expect(second.getByTestId('approval-card')).toBeVisible();
  await tabTo(page, second.getByLabel('Note to the agent'), { back: true });
  await page.keyboard.type('Not now: keep the draft in your head.');
  await tabTo(page, second.getByRole('button', { name: 'Reject' }));
  await expectFocusRing(page);
  await shots(page, 'keyboard-06-reject-with-note');
  await page.keyboard.press('Enter');
  await expect(second).toHaveAttribute('data-status', 'rejected');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Understood, I will not write it.');
  const requests = await llm.requests();
  expect(JSON.stringify(requests.at(-1)!.body.messages)).toContain('Not now: keep the draft in your head.');

  // A rule from the decision log: the header's Security, its Decision log tab, "Make a rule from this", saved.
  await tabTo(page, page.getByTestId('open-security'), { back: true, max: 150 });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('security-page')).toBeVisible();
  await tabTo(page, page.getByRole('tab', { selected: true }));
  await pressTo(page, 'ArrowRight', page.getByTestId('tab-log'));
  await expect(page.getByTestId('tab-log')).toHaveAttribute('aria-selected', 'true');
  await expectFocusRing(page);
  await shots(page, 'keyboard-07-security-tab');
  const rejected = page.getByTestId('log-row').filter({ hasText: 'draft.txt' }).first();
  await tabTo(page, rejected.getByTestId('rule-from-log'));
  await page.keyboard.press('Enter');
  const form = page.getByTestId('rule-form');
  await expect(form).toBeVisible();
  await expect(form.getByTestId('rule-path')).toHaveValue('draft.txt');
  await tabTo(page, form.getByTestId('save-rule'));
  await expectFocusRing(page);
  await shots(page, 'keyboard-08-rule-form');
  await page.keyboard.press('Enter');
  await expect(form).toHaveCount(0);
  const { rules } = await callBridge<{ rules: { tool_pattern: string; path_pattern: string | null }[] }>(
    page,
    'approval:listRules',
    { groupId: 'default' },
  );
  expect(rules.some((r) => r.tool_pattern === 'write_file' && r.path_pattern === 'draft.txt')).toBe(true);
});

/** Tab and Shift+Tab many times: the focus stays inside `dialog`. */
async function expectTrapped(page: Page, dialog: Locator): Promise<void> {
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((el) => el.contains(document.activeElement)), `${key} ${i} left the dialog`).toBe(
        true,
      );
    }
  }
}

test('a bypass chosen and a question answered by keyboard; dialogs keep the focus while open and give it back; the MCP menu goes by arrows and back to its button', async ({
  page,
}) => {
  test.setTimeout(90_000);
  llm = await startLlmProcess(app.dataDir, [
    { match: 'Count', toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo one' } }] },
    { match: 'Count', text: 'Counted.' },
    {
      match: 'Ask',
      toolCalls: [
        {
          name: 'ask_user_clarification',
          arguments: { title: 'Pick a format', question: 'Markdown or plain text?', suggested_answers: ['Markdown'] },
        },
      ],
    },
    { match: 'Ask', text: 'Noted.' },
    { text: 'Hello.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await callBridge(page, 'mcp:save', {
    name: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
  });
  await page.reload();
  const composer = page.getByTestId('composer');
  await tabTo(page, page.getByRole('link', { name: 'Skip to the message box' }));
  await page.keyboard.press('Enter');
  await page.keyboard.type('Hello there');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hello.');

  // A bypass chosen by keyboard: back from the message box to the chosen scope, an arrow to the next, its button.
  await page.keyboard.type('Count to one');
  await page.keyboard.press('Enter');
  const command = page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]');
  await expect(command.getByTestId('approval-card')).toBeVisible();
  await expect(composer).toBeFocused();
  await tabTo(page, command.getByRole('radio', { checked: true }), { back: true });
  await page.keyboard.press('ArrowDown');
  await expect(command.getByRole('radio').first()).not.toBeChecked();
  await tabTo(page, command.getByTestId('approve-bypass'));
  await expectFocusRing(page);
  await shots(page, 'keyboard-09-bypass-choice');
  await page.keyboard.press('Enter');
  await expect(command).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Counted.');

  // A question answered by keyboard, in its own words.
  await tabTo(page, composer);
  await page.keyboard.type('Ask me something');
  await page.keyboard.press('Enter');
  const question = page.getByTestId('question-card');
  await expect(question).toBeVisible();
  await tabTo(page, question.getByLabel('Answer'), { back: true });
  await page.keyboard.type('Plain text');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('answered-question')).toContainText('Plain text');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Noted.');

  // The Inbox: the focus goes in, Tab goes round inside, Escape closes it and the focus is back on its button.
  const inboxButton = page.getByTestId('open-inbox');
  await tabTo(page, inboxButton, { back: true, max: 80 });
  await page.keyboard.press('Enter');
  const inbox = page.getByRole('dialog', { name: 'Inbox' });
  await expect(inbox).toBeVisible();
  await expect.poll(() => inbox.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await expectFocusRing(page);
  await shots(page, 'keyboard-10-inbox-focused');
  await expectTrapped(page, inbox);
  await page.keyboard.press('Escape');
  await expect(inbox).toHaveCount(0);
  await expect(inboxButton).toBeFocused();

  // The session switcher: the same, from the message box.
  await composer.focus();
  await page.keyboard.press('Control+k');
  const switcher = page.getByRole('dialog', { name: 'Switch session' });
  await expect(switcher.getByRole('combobox')).toBeFocused();
  await expectTrapped(page, switcher);
  await shots(page, 'keyboard-11-switcher');
  await page.keyboard.press('Escape');
  await expect(switcher).toHaveCount(0);
  await expect(composer).toBeFocused();

  // The MCP menu: its first entry takes the focus, the arrows move, Escape closes it back to its button.
  const prompts = page.getByTestId('prompts');
  await tabTo(page, prompts);
  await expect(async () => {
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('prompt-item').first()).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('prompt-item').nth(1)).toBeFocused();
  await expectFocusRing(page);
  await shots(page, 'keyboard-12-mcp-menu');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('prompt-menu')).toHaveCount(0);
  await expect(prompts).toBeFocused();
  // A prompt picked by keyboard goes into the box, and the focus with it.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('prompt-item').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(composer).toBeFocused();
  await expect(composer).not.toHaveValue('');
});

test("a narrow window by keyboard: the rail's chat list, and the viewer over the chat put aside and back", async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 700 });
  llm = await startLlmProcess(app.dataDir, []);
  writeFileSync(join(app.workspaceDir, 'notes.txt'), 'Some notes\n');
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.reload();
  const show = page.getByTestId('rail-chats');
  await tabTo(page, show);
  await page.keyboard.press('Enter');
  const open = page.locator('.session-flyout .session-open[aria-current="page"]');
  await expect(open).toBeFocused();
  await expectFocusRing(page);
  await shots(page, 'keyboard-13-rail-list');
  await page.keyboard.press('Escape');
  await expect(page.locator('.session-flyout')).toHaveCount(0);
  await expect(show).toBeFocused();

  // The viewer over the chat: the chat it covers is out of the Tab order.
  await callBridge(page, 'viewer:open', { path: 'notes.txt' });
  const viewer = page.getByTestId('viewer');
  await expect(viewer).toHaveClass(/over-chat/);
  const tab = page.getByRole('tab', { name: 'notes.txt' });
  await tabTo(page, tab);
  await expectFocusRing(page);
  for (let i = 0; i < 16; i++) {
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => !!document.activeElement?.closest('.chat')),
      `Tab ${i} went under the viewer`,
    ).toBe(false);
  }
  // "Chat" puts it aside, the focus to the message box; the header's "Viewer" brings it back, the focus on its tab;
  // Escape puts it aside again.
  const composer = page.getByTestId('composer');
  await tabTo(page, page.getByTestId('viewer-hide'));
  await expectFocusRing(page);
  await shots(page, 'keyboard-14-viewer-over-chat');
  await page.keyboard.press('Enter');
  await expect(viewer).toHaveCount(0);
  await expect(composer).toBeFocused();
  const viewerShow = page.getByTestId('viewer-show');
  await tabTo(page, viewerShow, { back: true });
  await expectFocusRing(page);
  await shots(page, 'keyboard-15-viewer-show');
  await page.keyboard.press('Enter');
  await expect(tab).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);
  await expect(composer).toBeFocused();
});

/**
 * Rewind as a person uses it (docs/rewind.md), in Chromium against the web shape with the scripted LLM: the second
 * message's turn edits a file, creates one and has a sub-agent edit a third; "Rewind to here" on that message shows
 * them with their diffs and restores all three, the chat forks (the later rows stay, replaced) and the message is
 * back in the message box. A file someone else changed since is a conflict: shown three ways, nothing written until
 * the person chooses (Esc Esc opens the picker there). Screenshots in both themes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { closeChatApp, openWith, send } from './chat-kit';
import { callBridge, expect, test } from './fixtures';
import { shots } from './screens';

test.afterEach(closeChatApp);

const allowWrites = async (page: Page) => {
  for (const tool_pattern of ['write_file', 'edit_file'])
    await callBridge(page, 'approval:createRule', { tool_pattern, action: 'allow', priority: 1, note: 'e2e' });
};

test('Rewind to here restores an edit, a creation and a sub-agent edit; the chat forks; the message is back', async ({
  page,
}) => {
  const app = await openWith(page, [
    { match: 'FIRST', text: 'Hello, ready.' },
    {
      match: 'SECOND',
      toolCalls: [
        { name: 'edit_file', arguments: { path: 'notes.txt', old_string: 'draft', new_string: 'FINAL' } },
        { name: 'write_file', arguments: { path: 'added.txt', content: 'made by the agent\n' } },
        {
          name: 'execute_task',
          arguments: { mode: 'sync', agent_id: 'software-engineer', prompt: 'SUB change b', title: 'change b' },
        },
      ],
    },
    {
      match: 'SUB change b',
      toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'sub-agent\n' } }],
    },
    { match: 'SUB change b', text: 'b.txt written.' },
    { match: 'SECOND', text: 'All three changed.' },
  ]);
  const ws = app.workspaceDir;
  writeFileSync(join(ws, 'notes.txt'), 'a draft of the notes\n');
  writeFileSync(join(ws, 'b.txt'), 'original b\n');
  await allowWrites(page);
  await send(page, 'FIRST hello');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hello, ready.');
  await send(page, 'SECOND change the files');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('All three changed.');
  expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('a FINAL of the notes\n');

  const second = page.getByTestId('msg-user').filter({ hasText: 'SECOND change the files' });
  await second.getByTestId('rewind-to-here').click();
  const dialog = page.getByTestId('rewind-dialog');
  const files = dialog.getByTestId('rewind-file');
  await expect(files).toHaveCount(3);
  // A modal like the app's others (lib/use-dialog-focus.ts): the focus goes in, and Tab goes round inside it.
  const focusInside = () => dialog.evaluate((d) => d.contains(document.activeElement));
  await expect.poll(focusInside).toBe(true);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInside()).toBe(true);
  }
  await expect(files.nth(0)).toContainText('added.txt');
  await expect(files.nth(0)).toContainText('will be removed');
  await expect(files.nth(1)).toContainText('b.txt');
  await expect(files.nth(1)).toContainText('sub-agent');
  await expect(files.nth(2)).toContainText('notes.txt');
  await files.nth(2).getByRole('button').first().click();
  await expect(dialog.getByTestId('rewind-diff')).toContainText('a draft of the notes');
  await expect(dialog.getByTestId('rewind-diff')).toContainText('a FINAL of the notes');
  await shots(page, 'rewind-dialog');

  await dialog.getByTestId('rewind-apply').click();
  await expect(dialog).toHaveCount(0);
  expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('a draft of the notes\n');
  expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('original b\n');
  expect(existsSync(join(ws, 'added.txt'))).toBe(false);
  // The chat forked: the message and what came after stay, replaced; the message is back in the box.
  await expect(second).toHaveClass(/msg-replaced/);
  await expect(page.getByTestId('composer')).toHaveValue('SECOND change the files');
  await expect(page.getByTestId('msg-agent').last()).toContainText('[Rewind]');
  await shots(page, 'rewind-forked');
});

test('a file changed by someone else is a conflict: three versions, nothing written until the person chooses', async ({
  page,
}) => {
  const app = await openWith(page, [
    { match: 'FIRST', text: 'Hi.' },
    { match: 'SECOND', toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content: '# Agent plan\n' } }] },
    { match: 'SECOND', text: 'Plan written.' },
  ]);
  const ws = app.workspaceDir;
  writeFileSync(join(ws, 'plan.md'), '# My plan\n');
  await allowWrites(page);
  await send(page, 'FIRST');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hi.');
  await send(page, 'SECOND write the plan');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Plan written.');
  writeFileSync(join(ws, 'plan.md'), '# Agent plan\n\nplus my own line\n');

  // Esc Esc (the message box empty, no turn running) opens the picker of the person's messages, newest first.
  await page.getByTestId('composer').focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  const picker = page.getByTestId('rewind-picker');
  await expect(picker.getByTestId('rewind-pick')).toHaveText([/SECOND write the plan/, /FIRST/]);
  await shots(page, 'rewind-picker');
  await page.keyboard.press('Enter');

  const dialog = page.getByTestId('rewind-dialog');
  const file = dialog.getByTestId('rewind-file');
  await expect(file).toHaveAttribute('data-state', 'conflict');
  await expect(dialog.getByTestId('rewind-three').locator('section')).toHaveText([
    /^Before your message.*# My plan/s,
    /^As the agent left it.*# Agent plan/s,
    /^Now.*plus my own line/s,
  ]);
  await expect(dialog.getByTestId('rewind-apply')).toBeDisabled();
  await shots(page, 'rewind-conflict');
  await dialog.getByLabel('Keep it as it is now').check();
  await dialog.getByTestId('rewind-files-only').click();
  await expect(dialog).toHaveCount(0);
  expect(readFileSync(join(ws, 'plan.md'), 'utf8')).toBe('# Agent plan\n\nplus my own line\n');
  // Files only: the chat is kept whole.
  await expect(page.getByTestId('msg-replaced')).toHaveCount(0);

  // Again, restoring this time.
  await page.getByTestId('msg-user').filter({ hasText: 'SECOND' }).getByTestId('rewind-to-here').click();
  await dialog.getByLabel('Restore the version from before your message').check();
  await dialog.getByTestId('rewind-files-only').click();
  await expect(dialog).toHaveCount(0);
  expect(readFileSync(join(ws, 'plan.md'), 'utf8')).toBe('# My plan\n');
});

test('Settings → Checkpoints: the store size, and what the limits in the boxes would drop', async ({ page }) => {
  await openWith(page, [
    { toolCalls: [{ name: 'write_file', arguments: { path: 'one.txt', content: 'one\n' } }] },
    { text: 'Written.' },
  ]);
  await allowWrites(page);
  await send(page, 'write one');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Written.');
  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('checkpoint-settings');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByTestId('checkpoint-drops')).toHaveText(
    'Now 0.0 MB in 1 copy pair. These limits drop nothing.',
  );
  await shots(page, 'rewind-checkpoint-settings');
});

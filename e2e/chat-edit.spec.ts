/**
 * Regenerate and Edit as a person uses them (docs/chat-ui.md "Regenerate and Edit"), in Chromium against the web
 * shape: the newest answer asked for again (the old one stays, marked replaced), the newest message edited in place
 * and sent again, an answer that wrote a file refused with the reason under it, and the reasoning kept with its
 * answer. Screenshots in both themes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { closeChatApp, openWith, send } from './chat-kit';
import { expect, test } from './fixtures';
import { shots } from './screens';

test.afterEach(closeChatApp);

test('Regenerate asks again; Edit changes the newest message and sends it again; both keep what they replaced', async ({
  page,
}) => {
  await openWith(page, [
    { text: 'Six times seven is forty.' },
    { text: 'Six times seven is **42**.' },
    { text: 'Six times eight is **48**.' },
  ]);
  await send(page, 'What is six times seven?');
  const answers = page.getByTestId('msg-assistant');
  await expect(answers.last()).toContainText('Six times seven is forty.');

  await answers.last().hover();
  await page.getByTestId('regenerate').click();
  await expect(answers.last()).toContainText('Six times seven is 42.');
  await expect(page.getByTestId('msg-replaced')).toHaveCount(1);
  await expect(answers.first()).toHaveClass(/msg-replaced/);
  await expect(answers.first()).toContainText('Six times seven is forty.');
  await shots(page, 'chat-regenerated');

  const question = page.getByTestId('msg-user');
  await question.hover();
  await page.getByTestId('edit-message').click();
  const box = page.getByTestId('edit-box');
  await expect(box).toHaveValue('What is six times seven?');
  await box.fill('What is six times eight?');
  await shots(page, 'chat-editing');
  await box.press('Enter');
  await expect(answers.last()).toContainText('Six times eight is 48.');
  await expect(page.getByTestId('msg-replaced')).toHaveCount(3); // the old question and both of its answers
  await expect(question.last()).toContainText('What is six times eight?');
  await shots(page, 'chat-edited');
});

test('an answer that wrote a file is not replaced: the reason shows under it', async ({ page }) => {
  const app = await openWith(page, [
    { toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content: '# Plan\n' } }] },
    { text: 'Written to plan.md.' },
  ]);
  writeFileSync(join(app.workspaceDir, 'keep.txt'), 'x');
  await send(page, 'Write the plan');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
  const answer = page.getByTestId('msg-assistant').last();
  await expect(answer).toContainText('Written to plan.md.');
  await answer.hover();
  await page.getByTestId('regenerate').click();
  await expect(page.getByTestId('message-action-error')).toContainText(
    'The answer ran write_file, which may have changed something',
  );
  await expect(page.getByTestId('msg-replaced')).toHaveCount(0);
  await shots(page, 'chat-regenerate-refused');
});

test("the model's reasoning stays with its answer, folded away, also after a reload", async ({ page }) => {
  await openWith(page, [
    { reasoning: 'Six sevens: 7, 14, 21, 28, 35, 42. So forty-two.', text: 'Six times seven is 42.' },
  ]);
  await send(page, 'What is six times seven?');
  const answer = page.getByTestId('msg-assistant').last();
  await expect(answer).toContainText('Six times seven is 42.');
  const reasoning = answer.getByTestId('msg-reasoning');
  await expect(reasoning).toBeVisible();
  await expect(reasoning.locator('.reasoning')).toBeHidden();
  await reasoning.locator('summary').click();
  await expect(reasoning.locator('.reasoning')).toHaveText('Six sevens: 7, 14, 21, 28, 35, 42. So forty-two.');
  await shots(page, 'chat-reasoning-open');
  await page.reload();
  await expect(page.getByTestId('msg-assistant').last().getByTestId('msg-reasoning')).toBeVisible();
});

test('Arrow Up in the empty message box opens the newest message for editing; Esc gives it up', async ({ page }) => {
  await openWith(page, [{ text: 'Noted.' }]);
  await send(page, 'Remember the milk');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Noted.');
  const box = page.getByTestId('composer');
  await box.fill('x');
  await box.press('ArrowUp'); // not while something is typed
  await expect(page.getByTestId('edit-box')).toHaveCount(0);
  await box.fill('');
  await box.press('ArrowUp');
  await expect(page.getByTestId('edit-box')).toHaveValue('Remember the milk');
  await expect(page.getByTestId('edit-box')).toBeFocused();
  await page.getByTestId('edit-box').press('Escape');
  await expect(page.getByTestId('edit-box')).toHaveCount(0);
  await expect(page.getByTestId('msg-user')).toContainText('Remember the milk');
});

/**
 * The approval card shows the tool's own dry run (docs/approval.md "Approval binding"): an edit it would refuse
 * shows that refusal and no diff; an edit it accepts shows the diff it then writes, with the normalized arguments
 * (an alias of `path` folded, the path absolute) that the hash covers.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, startApp, stopApp, test, type App } from './fixtures';
import { shots } from './screens';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

let app: App;
let llm: LlmProcess | undefined;

test.beforeEach(async ({ page }) => {
  app = await startApp(page);
});

test.afterEach(async () => {
  llm?.stop();
  await stopApp(app);
});

test('an edit the tool would refuse shows the refusal, not a diff; an accepted one shows what it writes', async ({
  page,
}) => {
  writeFileSync(join(app.workspaceDir, 'notes.md'), 'alpha\nbeta\n');
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'edit_file', arguments: { file: 'notes.md', old_string: 'gamma', new_string: 'delta' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { file: 'notes.md', old_string: 'beta', new_string: 'BETA' } }] },
    { text: 'done' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('edit my notes');
  await page.getByTestId('send').click();

  const card = page.getByTestId('approval-card');
  await expect(card.getByTestId('approval-refusal')).toContainText('old_string was not found in notes.md');
  await expect(card.locator('.diff, [data-testid="diff"]')).toHaveCount(0);
  await expect(card.getByTestId('approval-args')).toContainText(join(app.workspaceDir, 'notes.md'));
  await expect(card.getByTestId('approval-args')).not.toContainText('"file"');
  await shots(page, 'approval-refused-edit');
  await card.getByRole('button', { name: 'Reject' }).click();

  const second = page.getByTestId('approval-card');
  await expect(second).toContainText('BETA');
  await expect(second.getByTestId('approval-refusal')).toHaveCount(0);
  await shots(page, 'approval-edit-diff');
  await second.getByRole('button', { name: 'Approve once' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="edit_file"]').last()).toHaveAttribute(
    'data-status',
    'done',
  );
  expect(readFileSync(join(app.workspaceDir, 'notes.md'), 'utf8')).toBe('alpha\nBETA\n');
});

test('a write whose line diff would take the window too long shows the old text removed and the new added', async ({
  page,
}) => {
  // 6,000 lines with nothing in common: jsdiff's line diff takes seconds (line-diff.ts gives up after 200 ms).
  const lines = (tag: string) => Array.from({ length: 6_000 }, (_, i) => `${tag} line ${i}`).join('\n') + '\n';
  writeFileSync(join(app.workspaceDir, 'big.txt'), lines('old'));
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'write_file', arguments: { path: 'big.txt', content: lines('new') } }] },
    { text: 'done' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('rewrite big.txt');
  await page.getByTestId('send').click();

  const diff = page.getByTestId('approval-card').getByTestId('diff');
  await expect(diff).toContainText('- old line 0');
  await expect(diff.locator('.diff-del')).toHaveCount(1);
  await expect(diff.locator('.diff-add')).toHaveCount(1);
  await expect(diff.locator('.diff-add')).toContainText('+ new line 5999');
  await shots(page, 'approval-coarse-diff');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Reject' }).click();
  expect(readFileSync(join(app.workspaceDir, 'big.txt'), 'utf8')).toBe(lines('old'));
});

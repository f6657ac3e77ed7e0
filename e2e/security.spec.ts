/**
 * The Security page against the real core: a rule added in the page decides the next call; a deny on a path-less
 * tool takes it out of the model's next request (read from the scripted LLM); the locked guard rows offer nothing
 * to edit; a refused edit shows the core's message at its field and writes nothing. Screens in light and dark.
 */
import type { Page } from '@playwright/test';
import { expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { shots } from './screens';
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

const rules = (page: Page, groupId = 'default') => page.evaluate((g) => window.skald!.approval.listRules({ groupId: g }).then((r) => r.rules), groupId);

async function openSecurity(page: Page): Promise<void> {
  await page.getByTestId('open-security').click();
  await expect(page.getByTestId('security-page')).toBeVisible();
  await expect(page.getByTestId('rule-row').first()).toBeVisible();
}

async function addRule(page: Page, fields: { tool: string; path?: string; command?: string; action: 'allow' | 'require' | 'deny' }): Promise<void> {
  await page.getByTestId('add-rule').click();
  const form = page.getByTestId('rule-form');
  await form.getByTestId('rule-tool').fill(fields.tool);
  if (fields.path) await form.getByTestId('rule-path').fill(fields.path);
  if (fields.command) await form.getByTestId('rule-command').fill(fields.command);
  await form.getByTestId(`rule-action-${fields.action}`).check({ force: true });
  await form.getByTestId('save-rule').click();
  await expect(form).toHaveCount(0);
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByTestId('nav-chat').click();
  await page.getByTestId('composer').fill(text);
  await page.getByTestId('send').click();
}

test('an allow rule added in the page lets the next matching call run without asking', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo from-the-rule' } }] },
    { text: 'ran it' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await openSecurity(page);
  await addRule(page, { tool: 'execute_cmd', command: 'echo *', action: 'allow' });
  const added = page.locator('[data-testid="rule-row"][data-action="allow"]', { hasText: 'echo *' });
  await expect(added).toBeVisible();
  // Read first: the new rule heads the list.
  await expect(page.getByTestId('rule-row').first()).toContainText('echo *');
  await shots(page, 'security-rules');

  await send(page, 'run echo');
  const card = page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]');
  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('approval-card')).toHaveCount(0);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('ran it');
});

test('a deny rule on a path-less tool removes it from the model\'s next request', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [{ text: 'first' }, { text: 'second' }]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  const toolNames = async () => {
    const requests = (await (await fetch(`${llm!.url}/__requests`)).json()) as { body: { tools?: { function: { name: string } }[] } }[];
    return (requests.at(-1)!.body.tools ?? []).map((t) => t.function.name);
  };
  await send(page, 'hello');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('first');
  expect(await toolNames()).toContain('write_todos');

  await openSecurity(page);
  await addRule(page, { tool: 'write_todos', action: 'deny' });
  await send(page, 'again');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('second');
  const offered = await toolNames();
  expect(offered).not.toContain('write_todos');
  expect(offered).toContain('read_file');
});

test('the locked guard rows cannot be edited, moved or deleted', async ({ page }) => {
  await page.goto(app.url);
  await openSecurity(page);
  const locked = page.getByTestId('locked-row');
  await expect(locked).toHaveCount(7);
  await expect(locked.filter({ hasText: 'secrets/ folders' })).toContainText('Why it is locked');
  await locked.first().scrollIntoViewIfNeeded();
  await shots(page, 'security-locked');
  for (const row of await locked.all()) {
    await expect(row.locator('button, input, select, textarea, [contenteditable]')).toHaveCount(0);
  }
  // Nor are they rules: the rule list and the core's rules do not hold them.
  const ids = (await rules(page)).map((r) => r.id);
  await expect(page.getByTestId('rule-row')).toHaveCount(ids.length);
});

test('a refused rule edit shows the core\'s message at the field and writes nothing', async ({ page }) => {
  await page.goto(app.url);
  await openSecurity(page);
  const before = await rules(page);
  const row = page.locator('[data-testid="rule-row"]', { hasText: 'memory/*' });
  await row.getByTestId('edit-rule').click();
  const form = page.getByTestId('rule-form');
  await form.getByTestId('rule-path').fill('mem*ory/x');
  await form.getByTestId('save-rule').click();
  const error = form.getByTestId('field-error-path_pattern');
  await expect(error).toContainText('a * may only stand at the end');
  await expect(form.getByTestId('rule-path')).toHaveAttribute('aria-invalid', 'true');
  await shots(page, 'security-refused-edit');
  expect(await rules(page)).toEqual(before);

  // A new rule refused by the core (a second catch-all) is not written either.
  await form.getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId('add-rule').click();
  const add = page.getByTestId('rule-form');
  await add.getByTestId('rule-tool').fill('*');
  await add.getByTestId('rule-action-allow').check({ force: true });
  await add.getByTestId('save-rule').click();
  await expect(add.getByTestId('field-error-tool_pattern')).toContainText('catch-all');
  expect(await rules(page)).toEqual(before);
});

test('groups: create, duplicate, rename, delete; Default cannot be deleted', async ({ page }) => {
  await page.goto(app.url);
  await openSecurity(page);
  await expect(page.getByTestId('delete-group')).toBeDisabled();
  await page.getByTestId('new-group').click();
  await page.getByTestId('group-name').fill('Client work');
  await page.getByTestId('save-group').click();
  await expect(page.locator('[data-testid="group-item"][data-group="client-work"]')).toHaveAttribute('aria-current', 'true');
  await addRule(page, { tool: 'read_file', path: 'src/*', action: 'allow' });
  await page.getByTestId('duplicate-group').click();
  await page.getByTestId('save-group').click();
  await expect(page.locator('[data-testid="group-item"][data-group="client-work-copy"]')).toContainText('1');
  expect((await rules(page, 'client-work-copy')).map((r) => r.path_pattern)).toEqual(['src/*']);
  await page.getByTestId('delete-group').click();
  await expect(page.locator('[data-testid="group-item"][data-group="client-work-copy"]')).toHaveCount(0);
  await page.locator('[data-testid="group-item"][data-group="client-work"]').click();
  await shots(page, 'security-group');
});

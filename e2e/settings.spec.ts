/**
 * Settings and the first run as a person meets them, against the real core and the scripted LLM (an
 * OpenAI-compatible server): the guide reaches a working chat in four steps; providers are tested with a real
 * request, keys are never shown; models reorder; the default folder is checked by the core; the theme follows the
 * choice; the keyboard works (Ctrl+, Ctrl+K, Enter, Shift+Enter, Esc); a model picked from a list that says its
 * context window is added with it. Screens in light and dark.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { callBridge, expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { pickOption } from './controls';
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
  if (gateway) await new Promise((r) => (gateway!.closeAllConnections(), gateway!.close(r)));
  gateway = undefined;
  await stopWebApp(app);
});

/** An OpenAI-compatible server whose model list says each window the way real ones do (OpenRouter, vLLM, Groq). */
let gateway: Server | undefined;
async function startWindowGateway(): Promise<string> {
  gateway = createServer((req, res) => {
    if (req.url !== '/v1/models') return void res.writeHead(404).end();
    const data = [
      { id: 'big-model', context_length: 1_048_576 },
      { id: 'small-model', max_model_len: 8_192 },
      { id: 'mid-model', context_window: 32_768 },
      { id: 'plain-model' },
    ];
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data }));
  });
  await new Promise<void>((r) => gateway!.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v1`;
}
type Listed = { models: { modelId: string; contextWindow: number | null }[] };
const windowsOf = async (page: Parameters<typeof callBridge>[0]) =>
  Object.fromEntries((await callBridge<Listed>(page, 'models:list')).models.map((m) => [m.modelId, m.contextWindow]));

test('the first-run guide reaches a working chat', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [{ text: 'Hello! This folder is empty so far.' }]);
  await page.goto(app.url);
  const guide = page.getByTestId('first-run');
  await expect(guide).toBeVisible();
  await expect(page.getByTestId('composer')).toHaveCount(0);
  await shots(page, 'first-run-1-provider');
  // 1. Provider: an OpenAI-compatible server at the scripted LLM's address.
  await pickOption(guide.getByTestId('fr-kind-openai_compatible'));
  await guide.getByTestId('fr-url').fill(`${llm.url}/v1`);
  // Unnamed, it is named after its host (not "Other (OpenAI-compatible)", which two of them would both be).
  const host = new URL(llm.url).host;
  await expect(guide.getByTestId('fr-name')).toHaveAttribute('placeholder', host);
  await guide.getByTestId('fr-next').click();
  // 2. Key, tested with one real request before anything is saved.
  await guide.getByTestId('fr-key').fill('sk-first-run-SECRET');
  await guide.getByTestId('fr-test').click();
  await expect(guide.getByTestId('probe-result')).toHaveAttribute('data-ok', 'true');
  await expect(guide.getByTestId('probe-result')).toContainText('1 model');
  await shots(page, 'first-run-2-key');
  await guide.getByTestId('fr-next').click();
  // 3. Model: offered from what the server listed.
  await expect(guide.getByTestId('fr-model-choice')).toBeChecked();
  await expect(guide.getByTestId('fr-model')).toHaveValue('scripted-1');
  await shots(page, 'first-run-3-model');
  await guide.getByTestId('fr-next').click();
  // 4. Folder, then a suggested first message.
  await expect(guide.getByTestId('fr-folder')).toHaveValue(app.workspaceDir);
  await shots(page, 'first-run-4-folder');
  await guide.getByTestId('fr-finish').click();
  await expect(guide.getByTestId('fr-suggestion').first()).toBeVisible();
  await shots(page, 'first-run-4-done');
  expect(await page.content()).not.toContain('sk-first-run-SECRET');
  await guide.getByTestId('fr-suggestion').first().click();
  await expect(page.getByTestId('msg-user')).toContainText('What is in this folder?');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('This folder is empty so far.');
  const requests = (await (await fetch(`${llm.url}/__requests`)).json()) as {
    path: string;
    headers: Record<string, string>;
  }[];
  expect(requests.at(-1)!.headers.authorization).toBe('Bearer sk-first-run-SECRET');
  const { providers } = await page.evaluate(() => window.skald!.providers.list({}));
  expect(providers.map((p) => p.name)).toEqual([host]);
  await shots(page, 'first-run-chat');
});

test('providers: test connection says what is wrong, keys are set and replaced but never shown; models reorder', async ({
  page,
}) => {
  llm = await startLlmProcess(app.dataDir, []);
  await page.goto(app.url);
  await expect(page.getByTestId('first-run')).toBeVisible();
  await page.keyboard.press('Control+,');
  const settings = page.getByTestId('settings');
  await expect(settings).toBeVisible();
  await settings.getByTestId('add-provider').click();
  const form = settings.getByTestId('provider-form');
  await expect(form.getByTestId('kind-anthropic')).toBeChecked(); // nothing local found on this machine
  await expect(form.getByTestId('provider-url')).toHaveCount(0); // a cloud kind: its address is fixed
  await pickOption(form.getByTestId('kind-openai_compatible'));
  await form.getByTestId('provider-name').fill('Gateway');
  await form.getByTestId('provider-url').fill(`${llm.url}/wrong`);
  await form.getByTestId('provider-probe').click();
  await expect(form.getByTestId('probe-result')).toHaveAttribute('data-ok', 'false');
  await expect(form.getByTestId('probe-result')).toContainText('usually ends in /v1');
  await form.getByTestId('provider-url').fill(`${llm.url}/v1`);
  await form.getByTestId('provider-key').fill('sk-one-SECRET');
  await form.getByTestId('provider-save').click();
  const row = settings.locator('[data-testid="provider-row"][data-provider="Gateway"]');
  await expect(row.getByTestId('key-state')).toHaveText('Key set');
  await expect(row.getByTestId('probe-result')).toHaveAttribute('data-ok', 'true'); // tested once saved
  await row.getByTestId('set-key').click();
  await row.getByTestId('replace-key').fill('sk-two-SECRET');
  await row.getByTestId('save-key').click();
  await row.getByTestId('test-provider').click();
  await expect(row.getByTestId('probe-result')).toHaveAttribute('data-ok', 'true');
  const listed = (await (await fetch(`${llm.url}/__model_requests`)).json()) as { headers: Record<string, string> }[];
  expect(listed.at(-1)!.headers.authorization).toBe('Bearer sk-two-SECRET');
  const html = await page.content();
  expect(html).not.toContain('sk-one-SECRET');
  expect(html).not.toContain('sk-two-SECRET');

  for (const id of ['scripted-1', 'scripted-2']) {
    await settings.getByTestId('model-id').fill(id);
    await settings.getByTestId('add-model').click();
    await expect(settings.locator(`[data-testid="model-row"][data-model="${id}"]`)).toBeVisible();
  }
  await settings.getByRole('button', { name: 'Move scripted-2 up' }).click();
  await expect(settings.getByTestId('model-row').first()).toHaveAttribute('data-model', 'scripted-2');
  expect(await page.evaluate(() => window.skald!.models.list({}).then((r) => r.models.map((m) => m.modelId)))).toEqual([
    'scripted-2',
    'scripted-1',
  ]);
  // Health is the last real call's outcome: these models have not been called yet.
  await expect(settings.getByTestId('model-health').first()).toHaveText('Not called yet');
  await shots(page, 'settings-providers', { fullPage: true });
  await settings.getByRole('button', { name: 'Delete model scripted-1' }).click();
  await expect(settings.getByTestId('model-row')).toHaveCount(1);
});

test('models: picking a listed model fills its context window from the list; a typed one is kept; a model without one is offered it', async ({
  page,
}) => {
  const url = await startWindowGateway();
  await page.goto(app.url);
  const { provider } = await callBridge<{ provider: { id: number } }>(page, 'providers:create', {
    kind: 'openai_compatible',
    name: 'Gateway',
    baseUrl: url,
  });
  await callBridge(page, 'models:create', { providerId: provider.id, modelId: 'small-model' }); // saved before its window was known
  await page.keyboard.press('Control+,');
  const settings = page.getByTestId('settings');
  await settings.locator('[data-testid="provider-row"][data-provider="Gateway"]').getByTestId('test-provider').click();
  await expect(settings.getByTestId('probe-result')).toContainText('4 models');
  const id = settings.getByTestId('model-id');
  const windowField = settings.getByTestId('model-window');
  await id.fill('big-model');
  await expect(windowField).toHaveValue('1048576');
  await expect(settings.getByTestId('model-window-source')).toContainText("from the provider's list");
  await id.fill('plain-model'); // listed without a window: the field empties, the 128k is assumed
  await expect(windowField).toHaveValue('');
  await expect(settings.getByTestId('model-window-source')).toHaveCount(0);
  await id.fill('big-model');
  await expect(windowField).toHaveValue('1048576');
  await settings.getByTestId('models-settings').scrollIntoViewIfNeeded();
  await shots(page, 'settings-models-window');
  await settings.getByTestId('add-model').click();
  await expect(settings.locator('[data-testid="model-row"][data-model="big-model"]')).toContainText('1049k context');
  await expect(windowField).toHaveValue('');
  // A window the person typed stays when they pick another listed model.
  await id.fill('plain-model');
  await windowField.fill('16000');
  await id.fill('mid-model');
  await expect(windowField).toHaveValue('16000');
  await settings.getByTestId('add-model').click();
  await expect(settings.locator('[data-testid="model-row"][data-model="mid-model"]')).toContainText('16k context');
  // The model saved without a window is offered the listed one.
  const small = settings.locator('[data-testid="model-row"][data-model="small-model"]');
  await expect(small).toContainText('the provider lists 8k context');
  await shots(page, 'settings-models-window-suggestion');
  await small.getByTestId('model-window-suggestion').click();
  await expect(small).toContainText('8k context');
  await expect(small.getByTestId('model-window-suggestion')).toHaveCount(0);
  expect(await windowsOf(page)).toEqual({ 'small-model': 8_192, 'big-model': 1_048_576, 'mid-model': 16_000 });
});

test('first run: the model step fills the window the list gives the picked model', async ({ page }) => {
  const url = await startWindowGateway();
  await page.goto(app.url);
  const guide = page.getByTestId('first-run');
  await pickOption(guide.getByTestId('fr-kind-openai_compatible'));
  await guide.getByTestId('fr-url').fill(url);
  await guide.getByTestId('fr-next').click();
  await guide.getByTestId('fr-test').click();
  await expect(guide.getByTestId('probe-result')).toContainText('4 models');
  await guide.getByTestId('fr-next').click();
  await expect(guide.getByTestId('fr-model')).toHaveValue('big-model');
  await expect(guide.getByTestId('fr-window')).toHaveValue('1048576');
  await guide.locator('[data-testid="fr-model-choice"][value="small-model"]').check({ force: true });
  await expect(guide.getByTestId('fr-window')).toHaveValue('8192');
  await shots(page, 'first-run-3-model-window');
  await guide.getByTestId('fr-next').click();
  await expect(guide.getByTestId('fr-folder')).toBeVisible();
  expect(await windowsOf(page)).toEqual({ 'small-model': 8_192 });
});

test('general: the default folder is checked by the core; the theme follows the choice; the data folder is shown', async ({
  page,
}) => {
  await page.goto(app.url);
  await page.getByTestId('open-settings').click();
  const settings = page.getByTestId('settings');
  await expect(settings.getByTestId('data-dir')).toHaveText(app.dataDir);
  await settings.getByTestId('default-workdir').fill(`${app.dataDir}/nope`);
  await settings.getByTestId('save-workdir').click();
  await expect(settings.getByTestId('workdir-error')).toContainText('Not a directory');
  await settings.getByTestId('default-workdir').fill(app.dataDir);
  await settings.getByTestId('save-workdir').click();
  await expect(settings.getByTestId('workdir-error')).toContainText('data folder');
  expect(
    await page.evaluate(() => window.skald!.app.getSettings({}).then((r) => r.settings.defaultWorkingDirectory)),
  ).toBeNull();
  await settings.getByTestId('default-workdir').fill(app.workspaceDir);
  await settings.getByTestId('save-workdir').click();
  await expect(settings.getByTestId('general-settings').getByRole('status')).toHaveText('Saved');

  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await settings.getByText('Dark', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' }); // a fixed choice ignores the system
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('open-settings').click();
  await settings.getByText('System', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shots(page, 'settings-general');
  await page.keyboard.press('Escape');
  await expect(settings).toHaveCount(0);
});

test('general: the diff history limits are shown, refused when nonsense, and kept', async ({ page }) => {
  await page.goto(app.url);
  await page.getByTestId('open-settings').click();
  const row = page.getByTestId('diff-history');
  await expect(row.getByTestId('diff-history-days')).toHaveValue('30');
  await expect(row.getByTestId('diff-history-mb')).toHaveValue('512');
  await row.getByTestId('diff-history-mb').fill('4');
  await row.getByTestId('save-diff-history').click();
  await expect(row.getByRole('alert')).toContainText('at least 16 MB');
  await row.getByTestId('diff-history-days').fill('7');
  await row.getByTestId('diff-history-mb').fill('64');
  await row.getByTestId('save-diff-history').click();
  await expect(row.getByRole('status')).toHaveText('Saved');
  await shots(page, 'settings-diff-history');
  await page.reload();
  await page.getByTestId('open-settings').click();
  await expect(row.getByTestId('diff-history-days')).toHaveValue('7');
  expect(await page.evaluate(() => window.skald!.app.getSettings({}).then((r) => r.settings.diffHistory))).toEqual({
    maxMb: 64,
    keepDays: 7,
  });
});

test('general: your instructions are saved, kept, and given to the model at its next answer', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [{ text: 'Bonjour.' }]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('open-settings').click();
  const box = page.getByTestId('instructions');
  await expect(box).toHaveValue('');
  await box.fill('Answer in French. I work in TypeScript.');
  await page.getByTestId('save-instructions').click();
  await expect(page.getByTestId('general-settings').getByRole('status')).toHaveText('Saved');
  await shots(page, 'settings-instructions');
  await page.reload();
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('instructions')).toHaveValue('Answer in French. I work in TypeScript.');
  await page.getByTestId('settings').getByRole('button', { name: 'Close' }).click();
  await page.getByTestId('composer').fill('Hello');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Bonjour.');
  const [request] = await llm.requests();
  expect(String(request!.body.messages![0]!.content)).toContain(
    '<person-instructions>\nAnswer in French. I work in TypeScript.\n</person-instructions>',
  );
});

test('keyboard: Enter sends, Shift+Enter is a new line, Esc stops, Ctrl+K switches session', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [
    { text: 'first reply' },
    { text: 'a long answer '.repeat(400), chunkDelayMs: 40 },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  const composer = page.getByTestId('composer');
  await composer.fill('line one');
  await composer.press('Shift+Enter');
  await composer.pressSequentially('line two');
  await expect(composer).toHaveValue('line one\nline two');
  await composer.press('Enter');
  await expect(page.getByTestId('msg-user')).toContainText('line two');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('first reply');

  await composer.fill('go on and on');
  await composer.press('Enter');
  await expect(page.getByTestId('stop')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('stop')).toHaveCount(0);

  await page.getByTestId('new-session').click();
  await expect(page.getByTestId('session-item')).toHaveCount(2);
  await page.keyboard.press('Control+k');
  const switcher = page.getByTestId('session-switcher');
  await expect(switcher).toBeVisible();
  await switcher.getByRole('combobox').fill('line');
  await shots(page, 'session-switcher');
  await page.keyboard.press('Enter');
  await expect(switcher).toHaveCount(0);
  await expect(page.locator('.session-item.active')).toContainText('line one');
});

test('models: the reasoning setting is set in the edit form and the add form, and kept with the model', async ({
  page,
}) => {
  await page.goto(app.url);
  // A provider nobody answers at: this test never calls the model, and a test connection fails at once.
  const { provider } = await callBridge<{ provider: { id: number } }>(page, 'providers:create', {
    kind: 'anthropic',
    name: 'Claude',
    baseUrl: 'http://127.0.0.1:9/v1',
  });
  await callBridge(page, 'models:create', {
    providerId: provider.id,
    modelId: 'claude-sonnet-4-5',
    displayName: 'Sonnet',
  });
  const reasoningOf = async () =>
    Object.fromEntries(
      (await callBridge<{ models: { modelId: string; reasoning: string }[] }>(page, 'models:list')).models.map((m) => [
        m.modelId,
        m.reasoning,
      ]),
    );
  expect(await reasoningOf()).toEqual({ 'claude-sonnet-4-5': 'off' });

  await page.keyboard.press('Control+,');
  const settings = page.getByTestId('settings');
  const row = settings.locator('[data-testid="model-row"][data-model="claude-sonnet-4-5"]');
  await expect(row.getByTestId('model-reasoning-label')).toHaveCount(0);
  await row.getByRole('button', { name: 'Edit' }).click();
  const level = row.getByTestId('model-edit-reasoning');
  await expect(level).toHaveValue('off');
  await expect(row.getByTestId('model-reasoning-help')).toHaveCount(0);
  await level.selectOption('high');
  await expect(row.getByTestId('model-reasoning-help')).toHaveText(
    'Only for models that reason; a model that does not may refuse the request.',
  );
  await settings.getByTestId('models-settings').scrollIntoViewIfNeeded();
  await shots(page, 'settings-models-reasoning');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByTestId('model-reasoning-label')).toHaveText('· reasoning high');
  expect(await reasoningOf()).toEqual({ 'claude-sonnet-4-5': 'high' });

  // The add form: a level picked there goes with the new model, and the form goes back to off.
  await settings.getByTestId('model-id').fill('claude-haiku-4-5');
  await settings.getByTestId('model-reasoning').selectOption('low');
  await expect(
    settings.getByTestId('models-settings').locator('.add-model').getByTestId('model-reasoning-help'),
  ).toBeVisible();
  await settings.getByTestId('add-model').click();
  await expect(
    settings.locator('[data-testid="model-row"][data-model="claude-haiku-4-5"]').getByTestId('model-reasoning-label'),
  ).toHaveText('· reasoning low');
  await expect(settings.getByTestId('model-reasoning')).toHaveValue('off');
  expect(await reasoningOf()).toEqual({ 'claude-sonnet-4-5': 'high', 'claude-haiku-4-5': 'low' });
  // Kept across a reload: the edit form opens with the stored level.
  await page.reload();
  await page.getByTestId('open-settings').click();
  await row.getByRole('button', { name: 'Edit' }).click();
  await expect(row.getByTestId('model-edit-reasoning')).toHaveValue('high');
});

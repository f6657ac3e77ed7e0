/**
 * Plugins, secrets and image generation as a person meets them: Settings → Plugins sets up the OpenAI-compatible
 * images plugin against a local scripted images server (a refused value shows the core's message and saves
 * nothing), Settings → Secrets stores and deletes a key without ever showing the value, and the agent then calls
 * image_generate (allowed by its seeded rule), the image lands in the workspace, and its card's thumbnail opens it
 * in the viewer. A set_secret approval card shows the value masked until the person reveals it (and hides it again).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PNG_1X1, startOpenAiImagesServer, type OpenAiImagesServer } from '../test/image-servers/index';
import { expect, screenshotPath, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';
import { shots } from './screens';

let app: WebApp;
let images: OpenAiImagesServer;
let llm: LlmProcess | undefined;

test.beforeEach(async () => {
  app = await startWebApp();
  images = await startOpenAiImagesServer();
});

test.afterEach(async () => {
  llm?.stop();
  await images.close();
  await stopWebApp(app);
});

test('a person sets up image generation in Settings, then the agent draws an image', async ({ page }) => {
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'image_generate', arguments: { prompt: 'a lighthouse at night' } }] },
    { text: 'Here is your lighthouse.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);

  await page.getByTestId('open-settings').click();
  const card = page.getByTestId('plugin-openai-images');
  await card.locator('summary').click();
  await expect(card).toContainText('disabled');

  // A refused value: the core's message at the plugin, nothing saved.
  await card.getByLabel('base_url').fill('not a url');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('alert')).toContainText('base_url must be an http(s) URL');
  const listed = await page.evaluate(() => window.skald!.plugins.list({}));
  expect(listed.plugins.find((p) => p.name === 'openai-images')!.config.base_url).toBe('https://api.openai.com/v1');

  await card.getByLabel('base_url').fill(`${images.url}/v1`);
  await card.getByLabel('model').fill('local-sd');
  await card.getByLabel('api_key').fill('sk-images-SECRET-42');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByLabel('api_key')).toHaveAttribute('placeholder', /set — type to replace/);
  await card.getByLabel('Enabled').check();
  await expect(card.locator('summary')).toContainText('enabled');
  await page.screenshot({ path: screenshotPath('plugins-settings-light'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: screenshotPath('plugins-settings-dark'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });

  // Secrets: set, listed by key, value never on the page, delete.
  const secrets = page.getByTestId('secrets-settings');
  await secrets.getByLabel('Secret key').fill('github.token');
  await secrets.getByLabel('Secret value').fill('ghp-VERY-SECRET-VALUE');
  await secrets.getByRole('button', { name: 'Save secret' }).click();
  await expect(secrets).toContainText('github.token');
  expect(await page.content()).not.toContain('ghp-VERY-SECRET-VALUE');
  expect(await page.content()).not.toContain('sk-images-SECRET-42');
  await secrets.getByLabel('Secret key').fill('llm.provider.1.api_key');
  await secrets.getByLabel('Secret value').fill('x');
  await secrets.getByRole('button', { name: 'Save secret' }).click();
  await expect(secrets.getByRole('alert')).toContainText('Settings → Providers');
  await secrets.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('secrets-settings-light'), fullPage: true });
  await secrets.getByRole('button', { name: 'Delete secret github.token' }).click();
  await expect(secrets).toContainText('No secrets stored.');
  await page.getByTestId('settings').getByRole('button', { name: 'Close' }).click();

  await page.getByTestId('composer').fill('Draw a lighthouse');
  await page.getByTestId('send').click();
  // image_generate is allowed by a seeded rule (it only draws into images/), and the card says which.
  const tool = page.locator('[data-testid="tool-card"][data-tool="image_generate"]');
  await expect(tool).toHaveAttribute('data-status', 'done');
  await expect(tool.getByTestId('tool-why')).toContainText('Allow image_generate');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Here is your lighthouse.');
  const folder = join(app.workspaceDir, 'images');
  expect(existsSync(folder)).toBe(true);
  const [file] = readdirSync(folder);
  expect(file).toMatch(/^\d{4}-\d{2}-\d{2}-a-lighthouse-at-night\.png$/);
  expect(readFileSync(join(folder, file!)).equals(PNG_1X1)).toBe(true);
  expect(images.requests.at(-1)!.headers.authorization).toBe('Bearer sk-images-SECRET-42');
  await page.screenshot({ path: screenshotPath('image-generate-done') });

  // The finished card shows a thumbnail of the saved image, loaded by handle; a click opens it in the viewer.
  const thumb = tool.getByTestId('image-thumb');
  await expect(thumb).toHaveCount(1);
  await expect(thumb).toHaveAttribute('title', /images\/\d{4}-\d{2}-\d{2}-a-lighthouse-at-night\.png/);
  await expect.poll(() => thumb.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await tool.scrollIntoViewIfNeeded();
  await shots(page, 'image-thumbnails');
  await thumb.click();
  const shown = page.getByTestId('viewer-image');
  await expect(shown).toBeVisible();
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await shots(page, 'image-thumbnail-opened');
});

test('a set_secret approval card shows the value masked until the person reveals it', async ({ page }) => {
  const secret = 'ghp-E2E-REVEAL-31415';
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['config'] } }] },
    { toolCalls: [{ name: 'set_secret', arguments: { key: 'github.token', value: secret } }] },
    { text: 'Stored your token.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('Keep my GitHub token');
  await page.getByTestId('send').click();

  const card = page.locator('[data-testid="tool-card"][data-tool="set_secret"]').getByTestId('approval-card');
  const args = card.getByTestId('approval-args');
  await expect(args).toContainText('github.token');
  await expect(args).toContainText('(secret, hidden)');
  // The summary does not count the ciphertext's characters as if they were the value's.
  await expect(card.locator('summary', { hasText: 'Full arguments' })).toHaveText('Full arguments (with a secret)');
  expect(await page.content()).not.toContain(secret);
  await shots(page, 'secret-approval-masked');

  await card.getByTestId('reveal-secret').click();
  await expect(args).toContainText(secret);
  await expect(args).not.toContainText('(secret, hidden)');
  await shots(page, 'secret-approval-revealed');
  await card.getByTestId('hide-secret').click();
  await expect(args).toContainText('(secret, hidden)');
  expect(await page.content()).not.toContain(secret);

  // Revealed, then the card leaves the screen (another session opened): back on it, the value is masked again.
  await card.getByTestId('reveal-secret').click();
  await expect(args).toContainText(secret);
  await page.getByRole('button', { name: 'New session' }).click();
  await expect(args).toHaveCount(0);
  await page.getByText('Keep my GitHub token').first().click();
  await expect(args).toContainText('(secret, hidden)');
  expect(await page.content()).not.toContain(secret);

  // Revealed, then approved: the value goes with the card, and the finished card shows the mask.
  await card.getByTestId('reveal-secret').click();
  await expect(args).toContainText(secret);
  await card.getByRole('button', { name: 'Approve once' }).click();
  const tool = page.locator('[data-testid="tool-card"][data-tool="set_secret"]');
  await expect(tool).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Stored your token.');
  expect(await page.content()).not.toContain(secret);
});

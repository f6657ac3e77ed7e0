/**
 * A restart of the web shape on the same data folder and port: the open tab shows a "reconnecting" bar while the
 * server is down, reconnects by itself (the access token is kept per data folder, so its cookie still works),
 * reloads the open session, and chats on. `--rotate-token` makes a new token that the old tab cannot use.
 */
import { rmSync } from 'node:fs';
import { expect, screenshotPath, startWebApp, test, type WebApp } from './fixtures';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

let llm: LlmProcess | undefined;
const apps: WebApp[] = [];

async function kill(app: WebApp): Promise<void> {
  if (app.process.exitCode !== null) return;
  const exited = new Promise((resolve) => app.process.once('exit', resolve));
  app.process.kill('SIGTERM');
  await exited;
}

test.afterEach(async () => {
  llm?.stop();
  for (const app of apps.splice(0)) await kill(app);
});

test('after a restart on the same data folder and port the tab reconnects and shows the session', async ({ page }) => {
  const first = await startWebApp();
  apps.push(first);
  const dataDir = first.dataDir;
  const port = Number(new URL(first.url).port);
  llm = await startLlmProcess(dataDir, [{ text: 'Hello before the restart.' }, { text: 'Hello after the restart.' }]);
  await page.goto(first.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('first message');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hello before the restart.');
  await expect(page.getByTestId('reconnecting')).toHaveCount(0);

  await kill(first);
  await expect(page.getByTestId('reconnecting')).toBeVisible();
  await expect(page.getByTestId('reconnecting')).toContainText('Reconnecting');
  for (const theme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await page.screenshot({ path: screenshotPath(`10-reconnecting-${theme}`) });
  }

  const second = await startWebApp({}, [], { dataDir, port });
  apps.push(second);
  expect(second.url, 'the token is kept per data folder').toBe(first.url);
  await expect(page.getByTestId('reconnecting')).toHaveCount(0, { timeout: 10_000 });
  await expect(page.getByTestId('msg-user')).toContainText(['first message']);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hello before the restart.');
  await page.getByTestId('composer').fill('second message');
  await page.getByTestId('send').click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Hello after the restart.');
  await page.screenshot({ path: screenshotPath('10-reconnected') });

  // --rotate-token: a new token; the old tab's cookie no longer opens the socket, so it keeps saying so.
  await kill(second);
  const rotated = await startWebApp({}, ['--rotate-token'], { dataDir, port });
  apps.push(rotated);
  expect(rotated.url).not.toBe(first.url);
  await expect(page.getByTestId('reconnecting')).toBeVisible();
  const stale = await fetch(`http://127.0.0.1:${port}/?token=${new URL(first.url).searchParams.get('token')}`);
  expect(stale.status).toBe(401);
  await kill(rotated);
  rmSync(dataDir, { recursive: true, force: true });
});

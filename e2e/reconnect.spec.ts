/**
 * A restart of the web shape on the same data folder and port: the open tab shows a "reconnecting" bar while the
 * server is down, reconnects by itself (the access token is kept per data folder, so its cookie still works),
 * reloads the open session, and chats on. `--rotate-token` makes a new token that the old tab cannot use. A server
 * that dies mid-command is noticed (the bar), and once it is back the card says what happened to the command
 * (interrupted, with Re-run), never "running" for ever.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, screenshotPath, startWebApp, test, type WebApp } from './fixtures';
import { shots } from './screens';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

let llm: LlmProcess | undefined;
const apps: WebApp[] = [];

async function kill(app: WebApp, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (app.process.exitCode !== null || app.process.signalCode !== null) return;
  const exited = new Promise((resolve) => app.process.once('exit', resolve));
  app.process.kill(signal);
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

test('a server that dies mid-command is noticed, and once it is back the card says the command was interrupted', async ({ page }) => {
  const first = await startWebApp();
  apps.push(first);
  const { dataDir, workspaceDir } = first;
  const port = Number(new URL(first.url).port);
  // Waits for a file the test makes, so the re-run below ends when the test says so.
  const command = 'while [ ! -f go.flag ]; do sleep 0.2; done; echo released';
  llm = await startLlmProcess(dataDir, [{ toolCalls: [{ name: 'execute_cmd', arguments: { command } }] }, { text: 'The command finished after the restart.' }]);
  await page.goto(first.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('wait for the flag');
  await page.getByTestId('send').click();
  const card = page.getByTestId('tool-card').first();
  await card.getByRole('button', { name: 'Approve once' }).click();
  await expect(card).toHaveAttribute('data-status', 'running');

  // The server crashes: the tab says so at once.
  await kill(first, 'SIGKILL');
  await expect(page.getByTestId('reconnecting')).toBeVisible();

  const second = await startWebApp({}, [], { dataDir, port });
  apps.push(second);
  await expect(page.getByTestId('reconnecting')).toHaveCount(0, { timeout: 10_000 });
  // Reloaded from the database: the command's fate is known, and the person decides.
  await expect(card).toHaveAttribute('data-interrupted', 'true');
  await expect(card.locator('.tool-state')).toHaveText('interrupted');
  await expect(card.getByRole('button', { name: 'Re-run' })).toBeVisible();
  await shots(page, '10-interrupted-after-crash');

  await card.getByRole('button', { name: 'Re-run' }).click();
  await card.getByRole('button', { name: 'Approve once' }).click();
  await expect(card).toHaveAttribute('data-status', 'running');
  await expect(card).toHaveAttribute('data-interrupted', 'false');
  writeFileSync(join(workspaceDir, 'go.flag'), '');
  await expect(card).toHaveAttribute('data-status', 'done');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('The command finished after the restart.');
  await expect(card).toContainText('released');
  await kill(second);
  rmSync(dataDir, { recursive: true, force: true });
});

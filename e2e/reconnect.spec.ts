/**
 * A restart of the web shape on the same data folder and port: the open tab shows a "reconnecting" bar while the
 * server is down, reconnects by itself (the access token is kept per data folder, so its cookie still works),
 * reloads the open session, and chats on. `--rotate-token` makes a new token that the old tab cannot use. A server
 * that dies mid-command is noticed (the bar), and once it is back the card says what happened to the command
 * (interrupted, with Re-run), never "running" for ever. The page crashing while a command runs (R6) stops nothing:
 * the command runs on, and the reloaded page re-reads the card from the database, done.
 */
import Database from 'better-sqlite3';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
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

test('a server that dies mid-command is noticed, and once it is back the card says the command was interrupted', async ({
  page,
}) => {
  const first = await startWebApp();
  apps.push(first);
  const { dataDir, workspaceDir } = first;
  const port = Number(new URL(first.url).port);
  // Waits for a file the test makes, so the re-run below ends when the test says so.
  const command = 'while [ ! -f go.flag ]; do sleep 0.2; done; echo released';
  llm = await startLlmProcess(dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command } }] },
    { text: 'The command finished after the restart.' },
  ]);
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

/** Kills the page's renderer process through the DevTools protocol and waits until Playwright has seen it go. */
async function crash(page: Page): Promise<void> {
  const crashed = new Promise<void>((resolve) => page.once('crash', () => resolve()));
  const cdp = await page.context().newCDPSession(page);
  void cdp.send('Page.crash').catch(() => undefined); // never answers: the page is gone
  await crashed;
}

/** A tool row's status as the database has it (the page cannot tell us: it is gone). */
function rowStatus(dataDir: string, name: string): string | undefined {
  const db = new Database(join(dataDir, 'skald.db'), { readonly: true });
  try {
    return (
      db.prepare('SELECT status FROM chat_llm_tools WHERE name = ? ORDER BY id DESC LIMIT 1').get(name) as
        | { status: string }
        | undefined
    )?.status;
  } finally {
    db.close();
  }
}

test('the page crashes while a command runs: the command runs on, and the reloaded page shows it done from the database (R6)', async ({
  page,
}) => {
  const app = await startWebApp();
  apps.push(app);
  const { dataDir, workspaceDir } = app;
  const command = 'while [ ! -f go.flag ]; do sleep 0.2; done; echo released';
  llm = await startLlmProcess(dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command } }] },
    { text: 'The command finished while the page was gone.' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('wait for the flag');
  await page.getByTestId('send').click();
  const card = page.getByTestId('tool-card').first();
  await card.getByRole('button', { name: 'Approve once' }).click();
  await expect(card).toHaveAttribute('data-status', 'running');

  // The renderer process dies (as Chromium's "Aw, Snap!"): nothing of the page is left, the command runs on.
  await crash(page);
  expect(rowStatus(dataDir, 'execute_cmd')).toBe('running');

  // The person reloads: a new renderer loads the app and re-reads the card from the database, still running (not
  // "interrupted": it is). Playwright keeps a crashed page closed, so a fresh tab of the same browser stands in for
  // the reloaded one, as Chromium itself starts a new renderer.
  const second = await page.context().newPage();
  await second.goto(app.url);
  const running = second.getByTestId('tool-card').first();
  await expect(running).toHaveAttribute('data-status', 'running');
  await expect(running).toHaveAttribute('data-interrupted', 'false');

  // It crashes again, and the command ends while no page is open; the turn goes on to its answer.
  await crash(second);
  writeFileSync(join(workspaceDir, 'go.flag'), '');
  await expect.poll(() => rowStatus(dataDir, 'execute_cmd'), { timeout: 20_000 }).toBe('done');

  const third = await page.context().newPage();
  await third.goto(app.url);
  const done = third.getByTestId('tool-card').first();
  await expect(done).toHaveAttribute('data-status', 'done');
  await expect(done).toHaveAttribute('data-interrupted', 'false');
  await expect(done).toContainText('released');
  await expect(third.getByTestId('msg-assistant').last()).toContainText(
    'The command finished while the page was gone.',
  );
  await shots(third, '10-done-after-page-crash');
  await kill(app);
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The command sandbox as a person meets it (docs/sandbox.md, docs/approval.md "The sandbox on the card"): a command's
 * card says where it runs and offers "with network" and "outside the sandbox" for that call alone; Settings →
 * Sandbox says whether it can start, what it confines, and, when it cannot, why, how to fix it and the person's
 * choice; the first run says so too. The unavailable case runs the app with a `bwrap` on its PATH that fails as a
 * container refusing namespaces would.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callBridge, expect, startApp, stopApp, test, type App } from './fixtures';
import { shots } from './screens';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

let app: App | undefined;
let llm: LlmProcess | undefined;
let fakeBin: string | undefined;

test.afterEach(async () => {
  llm?.stop();
  llm = undefined;
  if (app) await stopApp(app);
  app = undefined;
  if (fakeBin) rmSync(fakeBin, { recursive: true, force: true });
  fakeBin = undefined;
});

/** A PATH whose `bwrap` fails the way bubblewrap does in a container that refuses new namespaces. */
function failingBwrapPath(): string {
  fakeBin = mkdtempSync(join(tmpdir(), 'skald-fake-bwrap-'));
  const bwrap = join(fakeBin, 'bwrap');
  writeFileSync(bwrap, '#!/bin/sh\necho "bwrap: Creating new namespace failed: Operation not permitted" >&2\nexit 1\n');
  chmodSync(bwrap, 0o755);
  return `${fakeBin}:${process.env.PATH ?? ''}`;
}

test('a command card says it runs in the sandbox; network and outside the sandbox are asked for one call each', async ({
  page,
}) => {
  app = await startApp(page);
  fakeBin = mkdtempSync(join(tmpdir(), 'skald-e2e-outside-')); // a folder outside the working folder
  const outside = join(fakeBin, 'outside.txt');
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo networked > net.txt' } }] },
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: `echo outside > ${outside}` } }] },
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo networked > net.txt' } }] },
    { text: 'done' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('run my commands');
  await page.getByTestId('send').click();

  const card = page.getByTestId('approval-card');
  const line = card.getByTestId('sandbox-line');
  await expect(line).toHaveAttribute('data-state', 'sandboxed');
  await expect(line).toContainText(`Runs in the sandbox: writes inside ${app.workspaceDir}, no network`);
  await expect(card.getByTestId('approve-network')).toBeVisible();
  await expect(card.getByTestId('approve-unconfined')).toBeVisible();
  await shots(page, 'sandbox-card');
  await card.getByTestId('approve-network').click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]').first()).toHaveAttribute(
    'data-status',
    'done',
  );

  // The next command asks again: the choice was for that call only.
  await expect(page.getByTestId('approval-card')).toBeVisible();
  await page.getByTestId('approval-card').getByTestId('approve-unconfined').click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]').nth(1)).toHaveAttribute(
    'data-status',
    'done',
  );
  expect(readFileSync(outside, 'utf8')).toBe('outside\n');

  // The same command as the first asks again too; approved once, it runs in the sandbox without network.
  await expect(page.getByTestId('approval-card').getByTestId('sandbox-line')).toContainText('no network');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]').nth(2)).toHaveAttribute(
    'data-status',
    'done',
  );
  const { decisions } = await callBridge<{ decisions: { actor: string; sandbox: unknown }[] }>(
    page,
    'approval:listDecisions',
    { action: 'allow' },
  );
  expect(decisions.filter((d) => d.actor === 'user').map((d) => d.sandbox)).toEqual([
    { mode: 'sandboxed', network: false },
    { mode: 'unconfined' },
    { mode: 'sandboxed', network: true },
  ]);
});

test('Settings → Sandbox: ready here, what it confines, and the choice for when it cannot start', async ({ page }) => {
  app = await startApp(page);
  await page.goto(app.url);
  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('sandbox-settings');
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByTestId('sandbox-state')).toHaveAttribute('data-state', 'ready');
  await expect(section.getByTestId('sandbox-state')).toContainText('Ready: approved commands run in the sandbox');
  await expect(section.getByTestId('sandbox-confines').locator('li')).toHaveCount(5);
  await expect(section.getByTestId('sandbox-refuse')).toBeChecked();
  await section.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shots(page, 'settings-sandbox');
});

test('where the sandbox cannot start: the first run says why and how to fix it; commands run outside only by choice', async ({
  page,
}) => {
  app = await startApp(page, { PATH: failingBwrapPath() });
  await page.goto(app.url);
  const notice = page.getByTestId('first-run').getByTestId('sandbox-notice');
  await expect(notice).toContainText('Commands cannot run in the sandbox here.');
  await expect(notice).toContainText('Operation not permitted');
  await expect(notice).toContainText('How to fix it:');
  await shots(page, 'first-run-sandbox');

  await page.keyboard.press('Control+,');
  const section = page.getByTestId('sandbox-settings');
  await expect(section.getByTestId('sandbox-state')).toHaveAttribute('data-state', 'unavailable');
  await expect(section.getByTestId('sandbox-fix')).toContainText('seccomp=unconfined');
  await section.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shots(page, 'settings-sandbox-unavailable');

  // A command is refused (nothing runs) until the person chooses otherwise.
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo ran > refused.txt' } }] },
    { text: 'refused' },
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'echo ran > chosen.txt' } }] },
    { text: 'done' },
  ]);
  await configureModel(page, llm.url);
  await page.getByTestId('close-settings').click();
  await page.getByTestId('composer').fill('run it');
  await page.getByTestId('send').click();
  const card = page.getByTestId('approval-card');
  await expect(card.getByTestId('sandbox-line')).toHaveAttribute('data-state', 'unavailable');
  await expect(card.getByTestId('sandbox-line')).toContainText('Cannot run in the sandbox:');
  await expect(card.getByTestId('approve-network')).toHaveCount(0);
  await shots(page, 'sandbox-card-unavailable');
  await card.getByRole('button', { name: 'Approve once' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]').first()).toHaveAttribute(
    'data-status',
    'failed',
  );
  expect(existsSync(join(app.workspaceDir, 'refused.txt'))).toBe(false);

  await page.keyboard.press('Control+,');
  await page.getByTestId('sandbox-settings').getByTestId('sandbox-run-unconfined').click();
  await expect(page.getByTestId('sandbox-settings').getByTestId('sandbox-run-unconfined')).toBeChecked();
  await page.getByTestId('close-settings').click();
  await page.getByTestId('composer').fill('again');
  await page.getByTestId('send').click();
  const second = page.getByTestId('approval-card');
  await expect(second.getByTestId('sandbox-line')).toHaveAttribute('data-state', 'unconfined');
  await expect(second.getByTestId('sandbox-line')).toContainText('Runs outside the sandbox, with your full rights');
  await second.getByRole('button', { name: 'Approve once' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]').nth(1)).toHaveAttribute(
    'data-status',
    'done',
  );
  expect(readFileSync(join(app.workspaceDir, 'chosen.txt'), 'utf8')).toBe('ran\n');
});

test('a rule grants network to a command pattern on the Security page; an MCP stdio server has a sandbox switch', async ({
  page,
}) => {
  app = await startApp(page);
  await page.goto(app.url);
  const { rule } = await callBridge<{ rule: { id: number } }>(page, 'approval:createRule', {
    tool_pattern: 'execute_cmd',
    command_pattern: 'npm install *',
    action: 'allow',
  });
  await page.getByTestId('open-security').click();
  const row = page.locator(`[data-testid="rule-row"][data-rule-id="${rule.id}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('rule-network-badge')).toHaveCount(0);
  await row.getByTestId('edit-rule').click();
  const form = page.getByTestId('rule-form');
  await form.getByTestId('rule-network').check();
  await shots(page, 'security-rule-network');
  await form.getByTestId('save-rule').click();
  await expect(row.getByTestId('rule-network-badge')).toHaveText('with network');
  const { rules } = await callBridge<{ rules: { id: number; network: boolean }[] }>(page, 'approval:listRules', {});
  expect(rules.find((r) => r.id === rule.id)?.network).toBe(true);

  await callBridge(page, 'mcp:save', { name: 'mine', transport: 'stdio', command: 'true', enabled: false });
  await page.keyboard.press('Control+,');
  const server = page.locator('[data-testid="mcp-server"][data-name="mine"]');
  const sandboxed = server.getByTestId('mcp-sandboxed');
  await expect(sandboxed).not.toBeChecked();
  await sandboxed.click();
  await expect(sandboxed).toBeChecked();
  await server.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shots(page, 'settings-mcp-sandboxed');
  const { servers } = await callBridge<{ servers: { name: string; sandboxed: boolean }[] }>(page, 'mcp:list', {});
  expect(servers.find((s) => s.name === 'mine')?.sandboxed).toBe(true);
});

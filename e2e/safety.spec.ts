/**
 * What a person sees is safe and complete: the approval card shows a 10,000-character command in full with its
 * invisible characters made visible (X6); agent Markdown cannot fetch remote images, run script or open local
 * files (P1, V5).
 * Check ids (P1, V5, X6) are listed in docs/security-checks.md.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, screenshotPath, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { configureModel, startLlmProcess, type LlmProcess } from './scripted-llm';

let app: WebApp;
let llm: LlmProcess | undefined;
let beacon: Server | undefined;

test.beforeEach(async () => {
  app = await startWebApp();
});

test.afterEach(async () => {
  llm?.stop();
  beacon?.close();
  await stopWebApp(app);
});

test('the approval card shows a 10,000-character command in full, invisible characters visible (X6)', async ({
  page,
}) => {
  const command = `echo ${'a'.repeat(10_000)}\u202E\u200B done`;
  llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command } }] },
    { text: 'ran it' },
  ]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('run the long one');
  await page.getByTestId('send').click();
  const card = page.getByTestId('approval-card');
  await expect(card).toContainText('invisible characters');
  const shown = await card.getByTestId('approval-args').textContent();
  expect(shown).toContain('a'.repeat(10_000));
  expect(shown).toContain('⟦U+202E⟧⟦U+200B⟧ done');
  expect(shown).not.toContain('\u202E');
  await page.screenshot({ path: screenshotPath('07-invisible-characters') });
  await card.getByRole('button', { name: 'Approve once' }).click();
  await expect(page.locator('[data-testid="tool-card"][data-tool="execute_cmd"]')).toHaveAttribute(
    'data-status',
    'done',
  );
});

test('agent Markdown loads no remote image, runs no script, links no local file (P1, V5)', async ({ page }) => {
  let hits = 0;
  beacon = createServer((_req, res) => {
    hits++;
    res.end('x');
  });
  await new Promise<void>((resolve) => beacon!.listen(0, '127.0.0.1', () => resolve()));
  const port = (beacon.address() as AddressInfo).port;
  const text = [
    `Look: ![x](http://127.0.0.1:${port}/?q=SECRET)`,
    '[click me](javascript:window.__pwned=1)',
    '<img src=x onerror="window.__pwned=2">',
    '<iframe srcdoc="<script>parent.__pwned=3</script>"></iframe>',
    '[passwd](file:///etc/passwd)',
    '[docs](https://example.com/docs)',
  ].join('\n\n');
  llm = await startLlmProcess(app.dataDir, [{ text }]);
  await page.goto(app.url);
  await configureModel(page, llm.url);
  await page.getByTestId('composer').fill('show me');
  await page.getByTestId('send').click();
  const reply = page.getByTestId('msg-assistant').last();
  await expect(reply).toContainText('Image: x — click to load from 127.0.0.1');
  await page.waitForTimeout(500); // give any (wrong) fetch a chance to happen
  expect(hits).toBe(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(await reply.locator('iframe, script, img').count()).toBe(0);
  expect(await reply.getByText('click me').getAttribute('href')).toBeNull();
  expect(await reply.getByText('passwd').getAttribute('href')).toBeNull();
  const external = reply.getByText('docs');
  expect(await external.getAttribute('target')).toBe('_blank');
  expect(await external.getAttribute('rel')).toBe('noopener noreferrer');
});

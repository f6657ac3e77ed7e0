/**
 * The MCP catalog as a newcomer meets it (docs/mcp.md "Catalog"): Settings → MCP with no server shows the catalog
 * open, the hand-made "Add server" disabled until filled, and a link to the mcpServers import. Adding "Everything"
 * (installed with the app, so nothing is downloaded and it works offline) takes one click and its form: the server is
 * the person's (no trust step), starts, and lists its tools. An entry that needs a token cannot be added without it,
 * and the token field is a password field.
 */
import { expect, startWebApp, stopWebApp, test, type WebApp } from './fixtures';
import { shots } from './screens';

let app: WebApp;
test.beforeEach(async () => {
  app = await startWebApp();
});
test.afterEach(async () => {
  await stopWebApp(app);
});

test('add a catalog server in two clicks: it starts and lists its tools; a token is asked for where needed', async ({
  page,
}) => {
  await page.goto(app.url);
  await page.getByTestId('open-settings').click();
  const settings = page.getByTestId('mcp-settings');
  await settings.scrollIntoViewIfNeeded();
  // By hand: nothing to press until a name and a command are typed (no raw validation text for empty fields).
  const add = settings.getByTestId('mcp-add');
  const addServer = add.getByRole('button', { name: 'Add server' });
  await expect(addServer).toBeDisabled();
  await add.getByLabel('Server name').fill('mine');
  await expect(addServer).toBeDisabled();
  await expect(add.getByTestId('mcp-add-missing')).toHaveText('Type the command that starts it.');
  await add.getByLabel('Command').fill('npx');
  await expect(addServer).toBeEnabled();
  await add.getByLabel('Server name').fill('');
  await expect(addServer).toBeDisabled();

  // The catalog, open while no server is configured; its link opens the import of other apps' JSON.
  const catalog = settings.getByTestId('mcp-catalog');
  await expect(catalog).toHaveAttribute('open', '');
  await expect(catalog.getByTestId('mcp-catalog-entry')).not.toHaveCount(0);
  await catalog.getByRole('link', { name: 'Import their mcpServers JSON' }).click();
  await expect(settings.locator('#mcp-import')).toHaveAttribute('open', '');
  await expect(settings.getByLabel('mcpServers JSON')).toBeVisible();
  await shots(page, 'mcp-catalog');

  // A token is asked for, in a password field, and the entry cannot be added without it.
  const github = catalog.locator('[data-testid="mcp-catalog-entry"][data-id="github"]');
  await github.getByRole('button', { name: 'Add GitHub' }).click();
  await expect(github.getByTestId('mcp-catalog-secret')).toHaveAttribute('type', 'password');
  await expect(github.getByTestId('mcp-catalog-add')).toBeDisabled();
  await github.getByTestId('mcp-catalog-secret').fill('ghp_example');
  await expect(github.getByTestId('mcp-catalog-add')).toBeEnabled();
  await github.getByRole('button', { name: 'Cancel' }).click();

  // Everything is installed with the app: it runs from there, no download.
  const everything = catalog.locator('[data-testid="mcp-catalog-entry"][data-id="everything"]');
  await expect(everything).toContainText('Installed with Skald: starts without a download.');
  await everything.getByRole('button', { name: 'Add Everything (test server)' }).click();
  await expect(everything.getByTestId('mcp-catalog-name')).toHaveValue('everything');
  await shots(page, 'mcp-catalog-form');
  await everything.getByTestId('mcp-catalog-add').click();
  const server = settings.locator('[data-testid="mcp-server"][data-name="everything"]');
  await expect(server.getByTestId('mcp-state')).toHaveText('ready', { timeout: 30_000 });
  await expect(server).toContainText(/stdio · \d+ tools/);
  await server.getByRole('button', { name: 'Details of everything' }).click();
  await expect(server.locator('[data-testid="mcp-tool"][data-tool="echo"]')).toContainText('mcp__everything__echo');
  await expect(everything).toContainText('added');
  await shots(page, 'mcp-catalog-added');
});

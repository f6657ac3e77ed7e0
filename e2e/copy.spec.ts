/**
 * Copying from the chat (docs/chat-ui.md "Copying"), in Chromium against the web shape: a reply's "Copy" puts its
 * Markdown source on the clipboard, a code block's "Copy" its code alone (not the button's label, not the
 * highlighting's markup). The buttons show on hover. Screenshots in both themes.
 */
import { closeChatApp, openWith, send } from './chat-kit';
import { expect, test } from './fixtures';
import { shots } from './screens';

test.afterEach(closeChatApp);

const REPLY = 'Run this:\n\n```bash\nnpm run build && npm test\n```\n\nThen **check** the output.';

test("a reply's Copy gives its Markdown; a code block's Copy gives its code", async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openWith(page, [{ text: REPLY }]);
  await send(page, 'How do I build?');
  const reply = page.getByTestId('msg-assistant').last();
  await expect(reply).toContainText('Then check the output.');
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  await reply.hover();
  await reply.getByTestId('copy-message').click();
  await expect(reply.getByTestId('copy-message')).toHaveText('Copied');
  expect(await clipboard()).toBe(REPLY);

  const block = reply.locator('pre').first();
  await block.hover();
  await expect(block.locator('.code-copy')).toBeVisible();
  await shots(page, 'chat-copy-code');
  await block.locator('.code-copy').click();
  await expect(block.locator('.code-copy')).toHaveText('Copied');
  expect(await clipboard()).toBe('npm run build && npm test\n');
  await expect(block.locator('.code-copy')).toHaveText('Copy', { timeout: 3_000 });
});

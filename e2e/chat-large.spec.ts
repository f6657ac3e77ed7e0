/**
 * The chat with large input, in Chromium against the web shape with the scripted LLM over real HTTP
 * (docs/chat-ui.md "Streaming Markdown", docs/ui.md "What the first page loads"): a pasted text too long for one
 * message; a code block streaming as code, in chunks, ending as the same code; thousands of sessions in the list;
 * replies whose Markdown would overflow the stack or take seconds (docs/chat-ui.md "Markdown that is shown as plain
 * text"). Screenshots of each in light and dark.
 */
import { expect, test } from './fixtures';
import { closeChatApp, openWith, send } from './chat-kit';
import { shots } from './screens';
import { MAX_MESSAGE_CHARS } from '../src/shared/contract/chat';

test.afterEach(closeChatApp);

test('a pasted text too long for one message: the box says so and keeps it; within the bound it sends', async ({
  page,
}) => {
  await openWith(page, [{ text: 'Got the shorter one.' }]);
  const paste = async (text: string) =>
    page.getByTestId('composer').evaluate((box: HTMLTextAreaElement, value) => {
      // As a paste does: one input event with the whole text (Playwright's fill types a long text far too slowly).
      Object.getOwnPropertyDescriptor(Object.getPrototypeOf(box), 'value')!.set!.call(box, value);
      box.dispatchEvent(new Event('input', { bubbles: true }));
    }, text);
  const line = 'a pasted log line: 2026-12-06 07:30:00 INFO request served in 12 ms\n';
  await paste(line.repeat(Math.ceil((MAX_MESSAGE_CHARS + 1) / line.length)));
  await expect(page.getByTestId('composer-too-long')).toContainText(
    /This message has 200,\d{3} characters; one message holds at most 200,000\. Save the text as a file/,
  );
  await expect(page.getByTestId('send')).toBeDisabled();
  await page.getByTestId('composer').press('Enter');
  await expect(page.getByTestId('msg-user')).toHaveCount(0);
  await shots(page, 'ux-09-message-too-long');

  await paste(line.repeat(100));
  await expect(page.getByTestId('composer-too-long')).toHaveCount(0);
  await page.getByTestId('send').click();
  await expect(page.getByText('Got the shorter one.')).toBeVisible();
});

test('a code block shows as code while it streams, and the finished reply holds the same code', async ({ page }) => {
  const lines = Array.from(
    { length: 140 },
    (_, i) => `export const value${i} = compute(${i}, { retries: 3 }); // line ${i}`,
  );
  const reply = `Here is the module:\n\n\`\`\`ts\n${lines.join('\n')}\n\`\`\`\n\nThat is all of it.`;
  await openWith(page, [{ text: reply, chunkDelayMs: 4 }]);
  await send(page, 'Write the module');
  const streaming = page.getByTestId('streaming-markdown');
  // Mid-stream: the open block is a code block (not Markdown paragraphs), already holding its first lines.
  await expect(streaming.locator('pre > code.language-ts')).toContainText('export const value20 =');
  await expect(streaming.locator('p', { hasText: 'export const' })).toHaveCount(0);
  await shots(page, 'ux-10-code-streaming');
  // Past 100 lines the open block goes on in a second chunk, the text unbroken across it.
  await expect(streaming.locator('pre > code .code-chunk')).toHaveCount(2, { timeout: 20_000 });
  const sofar = await streaming.locator('pre > code').textContent();
  expect(`${lines.join('\n')}\n`.startsWith(sofar!)).toBe(true);
  expect(sofar!.split('\n').length).toBeGreaterThan(100);
  await expect(streaming).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText('That is all of it.')).toBeVisible();
  const finished = page.getByTestId('msg-assistant').locator('pre > code').last();
  await expect.poll(() => finished.textContent()).toBe(`${lines.join('\n')}\n`);
});

test('thousands of sessions: the list holds only the rows near the screen, scrolls to the oldest and opens it', async ({
  page,
}) => {
  await openWith(page, [], (store) => {
    store.transaction(() => {
      for (let i = 0; i < 3_000; i++) store.createSession(`Chat number ${i} about a topic with a long enough title`);
    });
  });
  const items = page.getByTestId('session-item');
  await expect(items.first()).toContainText('Chat number 2999');
  expect(await items.count()).toBeLessThan(80);
  await expect(page.getByTestId('composer')).toBeVisible();
  await shots(page, 'ux-11-many-sessions');
  await page.locator('.session-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  const oldest = items.filter({ hasText: /Chat number 0 about/ });
  await expect(oldest).toBeVisible();
  expect(await items.count()).toBeLessThan(80);
  await oldest.click();
  await expect(oldest).toHaveClass(/active/);
  await shots(page, 'ux-12-many-sessions-oldest');
});

test('a reply whose Markdown would overflow the stack or take seconds shows as plain text, and the chat goes on', async ({
  page,
}) => {
  const deep = `Deep quotes follow.\n\n${'>'.repeat(20_000)} the bottom`;
  const slow = '_a'.repeat(30_000);
  // Paced, so that frames see the text while it streams (the stream's own lexing threw on it too).
  await openWith(page, [{ text: deep, chunkDelayMs: 40 }, { text: slow }, { text: 'A *normal* reply.' }]);
  const failedParts: string[] = [];
  page.on('console', (m) => void (/could not be shown/.test(m.text()) && failedParts.push(m.text())));
  await send(page, 'Quote deeply');
  const replies = page.getByTestId('msg-assistant');
  await expect(replies.first().locator('.md-plain-note')).toHaveText(
    'Shown as plain text: it nests quotes or lists more than 32 levels deep.',
  );
  await expect(replies.first().locator('.md-plain')).toContainText('>>>>>>>>>> the bottom');
  await replies.first().locator('.md-plain-note').scrollIntoViewIfNeeded();
  await shots(page, 'ux-13-markdown-shown-plain');
  await send(page, 'Underscores');
  await expect(replies.nth(1).locator('.md-plain-note')).toContainText('long words full of "*" or "_"');
  await send(page, 'Now normally');
  await expect(replies.nth(2).locator('em')).toHaveText('normal');
  // Nothing failed to render on the way, not even for a frame (RenderGuard logs each part it stands in for).
  expect(failedParts).toEqual([]);
});

test('a code line too long to highlight stays plain, and the next block is highlighted at once', async ({ page }) => {
  // One 40,000-character identifier: the TypeScript grammar alone would hold the highlighting worker for minutes.
  const reply = `A generated constant:\n\n\`\`\`ts\nexport const ${'a'.repeat(40_000)} = 1;\n\`\`\`\n\nAnd the code that uses it:\n\n\`\`\`ts\nexport function read(): number {\n  return 42;\n}\n\`\`\``;
  await openWith(page, [{ text: reply }]);
  await send(page, 'Show me');
  const blocks = page.getByTestId('msg-assistant').locator('pre > code');
  await expect(blocks).toHaveCount(2);
  await expect(blocks.nth(1)).toHaveClass(/highlighted/);
  await expect(blocks.nth(0)).toContainText(`export const ${'a'.repeat(100)}`);
});

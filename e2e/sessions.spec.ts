/**
 * The session list as a person uses it (docs/chat-ui.md "Sessions"), in Chromium against the web shape: rename a
 * chat in place (Escape gives up), delete one after a confirmation in its row (the chat that took its place opens),
 * a refusal while the chat's turn runs, the last chat deleted leaving a new empty one, and a chat exported as a
 * Markdown file with every page of its history, and Ctrl+K finding what was said in an older chat (docs/ui.md
 * "Searching chats"), a hit deep in a long chat brought into view, a pinned chat kept at the top. Screenshots in both
 * themes.
 */
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import type { SessionStore } from '../src/main/core/session/session-store';
import { closeChatApp, openWith, send } from './chat-kit';
import { expect, test } from './fixtures';
import { shots } from './screens';

test.afterEach(closeChatApp);

const rowOf = (page: Page, title: string | RegExp) => page.getByTestId('session-item').filter({ hasText: title });

const DAY = 86_400_000;

/** Chats whose last activity lies `ago` ms before `now`, each with one message "About <title>", written oldest first. */
function seedChatsOfAges(store: SessionStore, now: number, chats: readonly (readonly [string, number])[]): void {
  const realNow = Date.now;
  try {
    for (const [title, ago] of chats) {
      Date.now = () => now - ago; // the chat's last activity, as its rows are written
      const id = store.createSession(title);
      store.appendMessage({ sessionId: id, role: 'user', content: `About ${title}` });
    }
  } finally {
    Date.now = realNow;
  }
}

/** A row's action, through its "⋯" (shown when the row is pointed at), which opens the actions in the row. */
async function rowAction(
  row: Locator,
  action: 'session-pin' | 'session-rename' | 'session-export' | 'session-delete',
): Promise<void> {
  await row.hover();
  await row.getByTestId('session-more').click();
  await row.getByTestId(action).click();
}

test('rename in place, delete after a confirmation, and the chat that took its place opens', async ({ page }) => {
  await openWith(page, [], (store) => {
    for (const [title, said] of [
      ['Alpha plan', 'the alpha plan'],
      ['Beta notes', 'notes about beta'],
      ['Gamma log', 'the gamma log'],
    ] as const) {
      const id = store.createSession(title);
      store.appendMessage({ sessionId: id, role: 'user', content: `Tell me about ${said}` });
      store.appendMessage({ sessionId: id, role: 'assistant', content: `Here is ${said}.` });
    }
  });
  const items = page.getByTestId('session-item');
  await expect(items).toHaveText(['Gamma log', 'Beta notes', 'Alpha plan'].map((t) => new RegExp(t)));
  await expect(page.getByTestId('msg-assistant')).toContainText('Here is the gamma log.');

  // Rename: Escape gives up, Enter keeps.
  await rowAction(rowOf(page, 'Beta notes'), 'session-rename');
  await page.getByTestId('session-rename-input').fill('never kept');
  await page.getByTestId('session-rename-input').press('Escape');
  await expect(rowOf(page, 'Beta notes')).toBeVisible();
  await rowAction(rowOf(page, 'Beta notes'), 'session-rename');
  await page.getByTestId('session-rename-input').fill('Beta, renamed');
  await page.getByTestId('session-rename-input').press('Enter');
  await expect(rowOf(page, 'Beta, renamed')).toBeVisible();
  await expect(items).toHaveCount(3);

  // Delete the open chat: asked in its row first; Keep leaves it.
  await rowAction(rowOf(page, 'Gamma log'), 'session-delete');
  await expect(page.getByTestId('session-item').filter({ hasText: 'Delete?' })).toBeVisible();
  await shots(page, 'sessions-confirm-delete');
  await page.getByRole('button', { name: 'Keep' }).click();
  await expect(rowOf(page, 'Gamma log')).toBeVisible();
  await rowAction(rowOf(page, 'Gamma log'), 'session-delete');
  await page.getByTestId('session-delete-confirm').click();
  await expect(items).toHaveCount(2);
  await expect(rowOf(page, 'Gamma log')).toHaveCount(0);
  // The chat that took its place in the list is open, with its own messages.
  await expect(page.locator('.session-item.active')).toContainText(/Beta, renamed|Alpha plan/);
  const open = (await page.locator('.session-item.active').textContent()) ?? '';
  await expect(page.getByTestId('msg-assistant')).toContainText(
    open.includes('Beta') ? 'Here is notes about beta.' : 'Here is the alpha plan.',
  );
  await shots(page, 'sessions-after-delete');

  // The last ones deleted: a new, empty chat is there to type in.
  for (let left = 2; left > 0; left--) {
    await rowAction(page.locator('.session-item.active'), 'session-delete');
    await page.getByTestId('session-delete-confirm').click();
    await expect(items).toHaveCount(left === 1 ? 1 : left - 1);
  }
  await expect(items).toHaveText([/^Session \d+/]);
  await expect(page.getByTestId('msg-assistant')).toHaveCount(0);
});

test('a chat whose turn runs is not deleted: its row says why', async ({ page }) => {
  await openWith(page, [{ toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'x' } }] }]);
  await send(page, 'Write a.txt');
  await expect(page.getByTestId('approval-card')).toBeVisible();
  const row = page.locator('.session-item.active');
  await rowAction(row, 'session-delete');
  await page.getByTestId('session-delete-confirm').click();
  await expect(row.getByRole('alert')).toContainText('Stop its turn first.');
  await expect(row.getByRole('alert')).toHaveAttribute('title', /A turn is running in this chat: stop it first/);
  await shots(page, 'sessions-delete-refused');
  await expect(page.getByTestId('session-item')).toHaveCount(1);
});

test('a chat exported as Markdown holds every message, older pages included', async ({ page }) => {
  await openWith(page, [], (store) => {
    const id = store.createSession('Long export');
    for (let i = 0; i < 2_500; i++)
      store.appendMessage({ sessionId: id, role: i % 2 ? 'assistant' : 'user', content: `Message number ${i}` });
  });
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Message number 2499');
  const row = rowOf(page, 'Long export');
  await row.hover();
  await row.getByTestId('session-more').click();
  await shots(page, 'sessions-row-actions');
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('session-export').click()]);
  expect(download.suggestedFilename()).toBe('Long-export.md');
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text).toMatch(/^# Long export\n\n_Exported from Skald on .* UTC; 2500 messages\._/);
  expect(text).toContain('## You\n\nMessage number 0\n');
  expect(text).toContain('## Assistant\n\nMessage number 2499\n');
  expect(text.match(/^## /gm)).toHaveLength(2_500);
});

test('Ctrl+K finds what was said in an older chat: the hit shows its chat and snippet, Enter opens that chat', async ({
  page,
}) => {
  await openWith(page, [], (store) => {
    const chats = [
      [
        'Garden ideas',
        'What should I plant along the south fence this spring?',
        'Along a sunny fence, heirloom tomatoes do well: stake them early and water them at the roots.',
      ],
      ['Tomato sauce recipe', 'How long should a tomato sauce simmer?', 'About forty minutes, stirring now and then.'],
      ['Monthly budget', 'Sum up the groceries.', 'Groceries came to 312 euros.'],
    ] as const;
    for (const [title, asked, answered] of chats) {
      const id = store.createSession(title);
      store.appendMessage({ sessionId: id, role: 'user', content: asked });
      store.appendMessage({ sessionId: id, role: 'assistant', content: answered });
    }
  });
  await expect(page.locator('.session-item.active')).toContainText('Monthly budget');
  await expect(page.getByTestId('msg-assistant')).toContainText('Groceries came to 312 euros.');
  const switcher = page.getByTestId('session-switcher');
  await page.keyboard.press('Control+k');
  await switcher.getByRole('combobox').fill('heirloom');
  const hits = switcher.getByTestId('switcher-hit');
  await expect(hits).toHaveCount(1);
  await expect(hits).toContainText('Garden ideas');
  await expect(hits.getByTestId('switcher-hit-snippet')).toHaveText(
    'Along a sunny fence, heirloom tomatoes do well: stake them early and water them at the…',
  ); // ~60 characters after
  await expect(hits.locator('mark')).toHaveText('heirloom');
  await expect(switcher.getByText('No session matches.')).toHaveCount(0);
  await shots(page, 'switcher-message-hit');
  await page.keyboard.press('Enter');
  await expect(switcher).toHaveCount(0);
  await expect(page.locator('.session-item.active')).toContainText('Garden ideas');
  await expect(page.getByTestId('msg-assistant')).toContainText('heirloom tomatoes');

  // Titles first, then the messages, newest first; the arrows go through both, in any case of the letters.
  await page.keyboard.press('Control+k');
  await switcher.getByRole('combobox').fill('TOMATO');
  await expect(switcher.getByRole('option')).toHaveText([
    /^Tomato sauce recipe$/,
    /^Tomato sauce recipe.*How long should a tomato sauce/,
    /^Garden ideas.*heirloom tomatoes/,
  ]);
  await expect(switcher.getByText('In messages')).toBeVisible();
  await shots(page, 'switcher-titles-and-messages');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown'); // stays on the last
  await expect(switcher.getByRole('option').nth(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowUp');
  await expect(switcher.getByRole('option').nth(1)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await expect(switcher).toHaveCount(0);
  await expect(page.locator('.session-item.active')).toContainText('Tomato sauce recipe');
  await expect(page.getByTestId('msg-user')).toContainText('How long should a tomato sauce simmer?');
});

test('a search hit deep in a long chat is brought into view and marked, the older pages loaded on the way', async ({
  page,
}) => {
  await openWith(page, [], (store) => {
    store.createSession('Other chat');
    const id = store.createSession('Long migration notes');
    for (let i = 0; i < 6_000; i++) {
      const text =
        i === 37
          ? 'We decided to keep the quartzite schema for the archive, and revisit it in spring.'
          : `Note ${i}: nothing to see in this one.`;
      store.appendMessage({ sessionId: id, role: i % 2 ? 'assistant' : 'user', content: text });
    }
  });
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Note 5999');
  await page.keyboard.press('Control+k');
  const switcher = page.getByTestId('session-switcher');
  await switcher.getByRole('combobox').fill('quartzite');
  await expect(switcher.getByTestId('switcher-hit')).toContainText('Long migration notes');
  await page.keyboard.press('Enter');
  const found = page.getByTestId('row-found');
  await expect(found).toContainText('We decided to keep the quartzite schema');
  await expect(found).toBeInViewport();
  await shots(page, 'search-hit-revealed');
  // The rows around it are the chat's own, loaded on the way: the reader can scroll on from there.
  await expect(page.getByText('Note 36: nothing to see in this one.')).toBeVisible();
  await expect(found).toHaveCount(0, { timeout: 5_000 }); // marked for a moment only
});

test('chats are listed under date headings: Today, Yesterday, the last 7 days, then by month', async ({ page }) => {
  const now = Date.now();
  await openWith(page, [], (store) =>
    seedChatsOfAges(store, now, [
      ['Budget from spring', 60 * DAY],
      ['Trip ideas', 3 * DAY],
      ['Release notes', DAY],
      ['Morning standup', 0],
    ]),
  );
  const month = new Date(now - 60 * DAY).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });
  await expect(page.getByTestId('session-heading')).toHaveText(['Today', 'Yesterday', 'Previous 7 days', month]);
  await expect(page.getByTestId('session-item')).toHaveText([
    /Morning standup/,
    /Release notes/,
    /Trip ideas/,
    /Budget from spring/,
  ]);
  await expect(page.getByTestId('msg-user')).toContainText('About Morning standup');
  await shots(page, 'sessions-date-headings');
});

test('a pinned chat stays at the top under Pinned, whatever its last activity, until it is unpinned', async ({
  page,
}) => {
  await openWith(page, [], (store) =>
    seedChatsOfAges(store, Date.now(), [
      ['Old reference', 40 * DAY],
      ['Yesterday notes', DAY],
      ['Today chat', 0],
    ]),
  );
  await rowAction(rowOf(page, 'Old reference'), 'session-pin');
  await expect(page.getByTestId('session-heading').first()).toHaveText('Pinned');
  await expect(page.getByTestId('session-item')).toHaveText([/Old reference/, /Today chat/, /Yesterday notes/]);
  await page.getByTestId('composer').focus(); // the pin button lets go of the focus: the row's buttons hide again
  await expect(page.getByTestId('msg-user')).toContainText('About Today chat');
  await shots(page, 'sessions-pinned');
  await page.reload(); // kept with the chat
  await expect(page.getByTestId('session-item').first()).toHaveText(/Old reference/);
  await rowOf(page, 'Old reference').hover();
  await rowOf(page, 'Old reference').getByTestId('session-more').click();
  await expect(rowOf(page, 'Old reference').getByTestId('session-pin')).toHaveAttribute('aria-label', 'Unpin chat');
  await rowOf(page, 'Old reference').getByTestId('session-pin').click();
  await expect(page.getByTestId('session-heading')).not.toContainText(['Pinned']);
  await expect(page.getByTestId('session-item')).toHaveText([/Today chat/, /Yesterday notes/, /Old reference/]);
});

test('each chat keeps its own draft: what was typed in one never shows, or is sent, in another', async ({ page }) => {
  await openWith(page, [], (store) => {
    for (const title of ['Chat A', 'Chat B'])
      store.appendMessage({ sessionId: store.createSession(title), role: 'user', content: `Hello from ${title}` });
  });
  const box = page.getByTestId('composer');
  await page.getByTestId('session-item').filter({ hasText: 'Chat A' }).click();
  await expect(page.getByTestId('msg-user')).toContainText('Hello from Chat A');
  await box.fill('half a thought for A');
  await page.getByTestId('session-item').filter({ hasText: 'Chat B' }).click();
  await expect(page.getByTestId('msg-user')).toContainText('Hello from Chat B');
  await expect(box).toHaveValue('');
  await box.fill('something for B');
  await page.getByTestId('session-item').filter({ hasText: 'Chat A' }).click();
  await expect(box).toHaveValue('half a thought for A');
  await page.getByTestId('session-item').filter({ hasText: 'Chat B' }).click();
  await expect(box).toHaveValue('something for B');
});

test('a reader far up a long chat gets a button back to the newest message', async ({ page }) => {
  await openWith(page, [], (store) => {
    const id = store.createSession('Long chat');
    for (let i = 0; i < 3_000; i++)
      store.appendMessage({
        sessionId: id,
        role: i % 2 ? 'assistant' : 'user',
        content: `Line ${i} of the long chat.`,
      });
  });
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Line 2999');
  await expect(page.getByTestId('jump-newest')).toHaveCount(0);
  const list = page.getByTestId('message-list');
  for (let i = 0; i < 30; i++) await list.evaluate((el) => el.scrollBy(0, -el.clientHeight * 3));
  await expect(page.getByTestId('jump-newest')).toBeVisible();
  await expect(page.getByText('Line 2999 of the long chat.')).toHaveCount(0);
  await shots(page, 'chat-jump-to-newest');
  await page.getByTestId('jump-newest').click();
  await expect(page.getByText('Line 2999 of the long chat.')).toBeInViewport();
  await expect(page.getByTestId('jump-newest')).toHaveCount(0);
});

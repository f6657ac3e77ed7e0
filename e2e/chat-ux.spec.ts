/**
 * The chat as a new user meets it, in Chromium against the web shape with the scripted LLM over real HTTP:
 * a bypass that says what it covers (narrowest by default, countdown, revoke from the card and the Inbox); the
 * Inbox answering a question and linking to its session; a call behind an approval shown queued; a command's label as code and its output's last lines
 * with the exit code; Markdown while it streams, with highlighted code; a long session opening at its newest
 * message and keeping the reader's place, and one longer than the list's window scrolled end to end. Screenshots of each screen in light and dark (docs/chat-ui.md).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { closeChatApp, openWith, send } from './chat-kit';
import { expect, test } from './fixtures';
import { shots } from './screens';

test.afterEach(closeChatApp);

const cardOf = (page: Page, n: number) => page.getByTestId('tool-card').nth(n);

test('a bypass says what it covers, defaults to the narrowest, counts down, and is revoked from the card and the Inbox', async ({
  page,
}) => {
  const a = await openWith(page, [
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes/a.md', old_string: 'one', new_string: 'ONE' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes/b.md', old_string: 'two', new_string: 'TWO' } }] },
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'other/c.md', old_string: 'three', new_string: 'THREE' } }] },
    { text: 'All edited.' },
    {
      toolCalls: [{ name: 'edit_file', arguments: { path: 'notes/a.md', old_string: 'ONE', new_string: 'one again' } }],
    },
    { text: 'Asked again.' },
  ]);
  for (const [rel, text] of [
    ['notes/a.md', 'one'],
    ['notes/b.md', 'two'],
    ['other/c.md', 'three'],
  ] as const) {
    mkdirSync(join(a.workspaceDir, rel, '..'), { recursive: true });
    writeFileSync(join(a.workspaceDir, rel), `${text}\n`);
  }
  await send(page, 'Edit the notes');
  const approval = page.getByTestId('approval-card');
  await expect(approval).toBeVisible();
  const choice = approval.getByTestId('bypass-choice');
  // Spelled out before the click, narrowest first and selected; the wider ones are explicit choices.
  await expect(choice.locator('label')).toHaveText([
    /edit_file under notes\//,
    /edit_file, any arguments/,
    /every filesystem tool \(wider\)/,
    /every tool \(wider\)/,
  ]);
  await expect(choice.getByRole('radio').first()).toBeChecked();
  await expect(choice.getByTestId('approve-bypass')).toHaveText(
    /Approve and allow edit_file under notes\/ until \d{1,2}:\d{2}/,
  );
  await expect(choice.locator('code').first()).toHaveText('edit_file');
  await shots(page, 'ux-01-bypass-choice');

  await choice.getByTestId('approve-bypass').click();
  // notes/b.md runs without asking (the bypass); other/c.md is outside it and asks.
  await expect(page.getByTestId('approval-card')).toBeVisible();
  await expect(page.getByTestId('approval-card')).toContainText('other/c.md');
  const first = cardOf(page, 0);
  await expect(first.getByTestId('bypass-badge')).toContainText(
    /Not asking for edit_file under notes\/ until \d{1,2}:\d{2}.*\((14|15):\d{2} left\)/,
  );
  const second = cardOf(page, 1);
  await expect(second).toHaveAttribute('data-status', 'done');
  await expect(second.getByTestId('tool-why')).toContainText('Allowed by your bypass for edit_file under notes/');
  await expect(second.getByTestId('tool-why').locator('code')).toHaveText(['edit_file', 'notes/']);
  expect(readFileSync(join(a.workspaceDir, 'notes/b.md'), 'utf8')).toBe('TWO\n');
  // The countdown is live.
  const before = await first.getByTestId('bypass-badge').textContent();
  await expect.poll(async () => first.getByTestId('bypass-badge').textContent(), { timeout: 5_000 }).not.toBe(before);
  await shots(page, 'ux-02-bypass-badge');

  // The Inbox shows the waiting call with the same choices, and the live bypass with Revoke.
  await page.getByTestId('open-inbox').click();
  const inbox = page.getByTestId('inbox');
  await expect(inbox.getByTestId('inbox-item')).toContainText('other/c.md');
  await expect(inbox.getByTestId('bypass-choice').locator('label').first()).toHaveText(/edit_file under other\//);
  await expect(inbox.getByLabel('Note to the agent')).toBeVisible();
  await expect(inbox.getByTestId('inbox-bypass')).toContainText('edit_file under notes/');
  await shots(page, 'ux-03-inbox-approval');
  await inbox.getByLabel('Note to the agent').fill('fine, once');
  await inbox.getByRole('button', { name: 'Approve once' }).click();
  await expect(inbox.getByTestId('inbox-item')).toHaveCount(0);
  await inbox.getByTestId('inbox-bypass').getByRole('button', { name: 'Revoke' }).click();
  await expect(inbox.getByTestId('inbox-bypass')).toHaveCount(0);
  await inbox.getByRole('button', { name: 'Close' }).click();
  await expect(first.getByTestId('bypass-badge')).toHaveCount(0);
  await expect(page.getByTestId('msg-assistant').last()).toContainText('All edited.');

  // Revoked: the same kind of call asks again.
  await send(page, 'Once more');
  await expect(page.getByTestId('approval-card')).toContainText('notes/a.md');
});

test('revoking from the card', async ({ page }) => {
  await openWith(page, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: 'git --version' } }] },
    { text: 'ok' },
  ]);
  await send(page, 'Which git?');
  const choice = page.getByTestId('bypass-choice');
  await expect(choice.locator('label').first()).toHaveText(/git \* commands/);
  await choice.getByLabel('For how long').selectOption({ label: 'for this session' });
  await expect(choice.getByTestId('approve-bypass')).toHaveText(/git \* commands until this session ends/);
  await choice.getByTestId('approve-bypass').click();
  const badge = cardOf(page, 0).getByTestId('bypass-badge');
  await expect(badge).toContainText('git * commands until this session ends');
  await badge.getByRole('button', { name: 'Revoke' }).click();
  await expect(badge).toHaveCount(0);
});

test('a call behind an approval says queued, not running, until its turn comes', async ({ page }) => {
  const web = await openWith(page, [
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: 'first.txt', content: 'one' } },
        { name: 'list_files', arguments: {} },
      ],
    },
    { text: 'Wrote it and listed the folder.' },
  ]);
  await send(page, 'Write, then list');
  const [first, second] = [cardOf(page, 0), cardOf(page, 1)];
  await expect(first).toHaveAttribute('data-status', 'pending');
  await expect(second).toHaveAttribute('data-status', 'queued');
  await expect(second.locator('.tool-state')).toHaveText('queued');
  await expect(second.locator('.tool-state')).toHaveAttribute('title', /Not started yet/);
  // The same after a reload: the row says so, not the view.
  await page.reload();
  await expect(cardOf(page, 1)).toHaveAttribute('data-status', 'queued');
  await shots(page, 'ux-02b-queued');
  await cardOf(page, 0).getByRole('button', { name: 'Approve once' }).click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Wrote it and listed the folder.');
  await expect(cardOf(page, 1)).toHaveAttribute('data-status', 'done');
  expect(readFileSync(join(web.workspaceDir, 'first.txt'), 'utf8')).toBe('one');
});

test('stopped while a call waits: it says not answered (no decision), the one behind it cancelled, never started', async ({
  page,
}) => {
  await openWith(page, [
    {
      toolCalls: [
        { name: 'write_file', arguments: { path: 'first.txt', content: 'one' } },
        { name: 'list_files', arguments: {} },
      ],
    },
    { text: 'Moved on.' },
  ]);
  await send(page, 'Write, then list');
  await expect(cardOf(page, 0)).toHaveAttribute('data-status', 'pending');
  await expect(page.getByTestId('open-inbox')).toContainText('(1)');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(cardOf(page, 1)).toHaveAttribute('data-status', 'cancelled');
  await expect(cardOf(page, 0).locator('.tool-state')).toHaveText('not answered');
  await expect(cardOf(page, 0).getByTestId('tool-unanswered')).toBeVisible();
  await expect(cardOf(page, 0).getByRole('button', { name: 'Approve once' })).toHaveCount(0);
  // The Inbox dropped it: withdrawn, not decided.
  await expect(page.getByTestId('open-inbox')).not.toContainText('(1)');
  await shots(page, 'ux-02c-stopped-while-waiting');
  await send(page, 'never mind');
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Moved on.');
  await expect(cardOf(page, 0)).toHaveAttribute('data-status', 'cancelled');
});

test('the Inbox answers a question with free text and links to its session', async ({ page }) => {
  await openWith(page, [
    {
      toolCalls: [
        {
          name: 'ask_user_clarification',
          arguments: {
            title: 'Pick a format',
            question: 'Markdown or **plain text**?',
            suggested_answers: ['Markdown', 'Plain text'],
          },
        },
      ],
    },
    { text: 'You said: noted.' },
  ]);
  await send(page, 'Write notes');
  await expect(page.getByTestId('question-card')).toContainText('Pick a format');
  // Another session is open when the person goes to the Inbox; the link brings them back.
  await page.getByTestId('new-session').click();
  await expect(page.getByTestId('question-card')).toHaveCount(0);
  await page.getByTestId('open-inbox').click();
  const item = page.getByTestId('inbox-question');
  await expect(item).toContainText('Pick a format');
  await expect(item.getByTestId('suggested-answer')).toHaveText(['Markdown', 'Plain text']);
  await shots(page, 'ux-04-inbox-question');
  // The link opens the question's session (and closes the Inbox).
  await item.getByTestId('inbox-session-link').click();
  await expect(page.getByTestId('inbox')).toHaveCount(0);
  await expect(page.getByTestId('question-card')).toContainText('Pick a format');
  await page.getByTestId('open-inbox').click();
  await item.getByLabel('Answer').fill('Org mode, please');
  await item.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(page.getByTestId('inbox')).toContainText('Nothing is waiting for you.');
  await page.getByTestId('inbox').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('msg-assistant').last()).toContainText('You said: noted.');
  const asked = page.getByTestId('tool-card').first();
  await expect(asked).toHaveAttribute('data-status', 'done');
  await asked.getByTestId('tool-head').click();
  await expect(asked.getByTestId('tool-body')).toContainText('Org mode, please');
});

test('a command shows its label as code, its last lines with the exit code, and expands', async ({ page }) => {
  await openWith(page, [
    { toolCalls: [{ name: 'execute_cmd', arguments: { command: "seq 1 40 && echo 'all `done`'" } }] },
    { text: 'Counted.' },
  ]);
  await send(page, 'Count');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
  const card = cardOf(page, 0);
  await expect(card).toHaveAttribute('data-status', 'done');
  const label = card.locator('.tool-label');
  await expect(label.locator('code')).toHaveText("seq 1 40 && echo 'all `done`'");
  await expect(label).toHaveText("execute_cmd seq 1 40 && echo 'all `done`'");
  const out = card.getByTestId('shell-output');
  await expect(out.getByTestId('exit-code')).toHaveText('exit code 0');
  await expect(out).toContainText('all `done`');
  await expect(out).toContainText('35 earlier lines');
  await expect(out).not.toContainText(/^1$/m);
  await shots(page, 'ux-05-shell-output');
  await out.getByTestId('shell-output-toggle').click();
  await expect(out.locator('pre')).toContainText(/^1\n2\n3/);
  await card.getByTestId('tool-head').click();
  await expect(card.getByTestId('tool-command')).toHaveText("$ seq 1 40 && echo 'all `done`'");
});

test('Markdown renders while it streams; code is highlighted; links and tables read in both themes', async ({
  page,
}) => {
  const reply = [
    '## Plan',
    '',
    'We **will** change [the docs](https://example.com/docs) and these files:',
    '',
    '| file | change |',
    '|---|---|',
    '| `a.ts` | rename |',
    '| `b.ts` | delete |',
    '',
    '```ts',
    'export function greet(name: string): string {',
    '  return `Hello, ${name}!`; // a comment',
    '}',
    '```',
    '',
    '- first',
    '- second',
  ].join('\n');
  await openWith(page, [{ text: reply, chunkDelayMs: 40 }]);
  await send(page, 'Plan it');
  // While it streams, the finished blocks are already Markdown.
  const streaming = page.getByTestId('streaming');
  await expect(streaming.locator('h2')).toHaveText('Plan');
  await expect(streaming.locator('strong')).toHaveText('will');
  const done = page.getByTestId('msg-assistant').last();
  await expect(done.locator('li')).toHaveText(['first', 'second']);
  await expect(done.locator('code.highlighted span').first()).toBeVisible();
  const colours = await done
    .locator('code.highlighted span')
    .evaluateAll((spans) => new Set(spans.map((s) => getComputedStyle(s).color)).size);
  expect(colours).toBeGreaterThan(2);
  await expect(done.locator('table td')).toHaveCount(4);
  await expect(done.locator('a')).toHaveAttribute('target', '_blank');
  await shots(page, 'ux-06-markdown');
});

test('a long session opens at its newest message and keeps the reader’s place', async ({ page }) => {
  let longId = 0;
  await openWith(page, [{ text: 'A new answer at the bottom.' }], (store) => {
    longId = store.createSession('Long session');
    for (let i = 0; i < 400; i++)
      store.appendMessage({
        sessionId: longId,
        role: i % 2 ? 'assistant' : 'user',
        content: `Message ${i}: ${'words '.repeat(5 + (i % 30))}`,
      });
    store.createSession('Short session');
  });
  const list = page.getByTestId('message-list');
  const atBottom = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight < 40);
  await page.getByText('Long session').click();
  await expect(page.getByText('Message 399:')).toBeInViewport();
  expect(await atBottom()).toBe(true);
  await shots(page, 'ux-07-long-session');

  // Switch away and back: it opens at the newest message again.
  await page.getByText('Short session').click();
  await page.getByText('Long session').click();
  await expect(page.getByText('Message 399:')).toBeInViewport();

  // The reader scrolls up; a new reply arrives below; their place stays.
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await page.waitForTimeout(200);
  const reading = await list.evaluate((el) => el.scrollTop);
  await send(page, 'One more');
  await expect(page.getByTestId('composer')).not.toHaveAttribute('placeholder', /working/, { timeout: 15_000 });
  await page.waitForTimeout(300);
  expect(Math.abs((await list.evaluate((el) => el.scrollTop)) - reading)).toBeLessThan(5);
  expect(await atBottom()).toBe(false);
  // Back at the bottom, it follows again.
  await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(page.getByText('A new answer at the bottom.')).toBeInViewport();
});

test('a session longer than the list’s window scrolls to its first message and back; rows under the reader never jump', async ({
  page,
}) => {
  test.setTimeout(180_000); // a few hundred scroll steps with frames between them: about a minute on a loaded 2-core machine
  // 2,400 messages: the newest page is 200, older pages come 100 at a time, and the list holds a window of 1,000
  // rows that moves as the reader nears its edges (docs/chat-ui.md "Scrolling").
  await openWith(page, [{ text: 'A new answer at the bottom.' }], (store) => {
    const id = store.createSession('Very long session');
    for (let i = 0; i < 2_400; i++)
      store.appendMessage({
        sessionId: id,
        role: i % 2 ? 'assistant' : 'user',
        content: `Message ${i}: ${'words '.repeat(5 + (i % 60))}`,
      });
  });
  await page.getByText('Very long session').click();
  await expect(page.getByText('Message 2399:')).toBeInViewport();
  const list = page.getByTestId('message-list');
  // Three quarters of a screen up per step. Before each step, the row at the top of the view; after it (and a few frames for
  // pages and the window to arrive), that row must sit exactly where the step alone put it.
  const up = await list.evaluate(async (el) => {
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const box = () => el.getBoundingClientRect();
    const firstInView = () =>
      [...el.querySelectorAll<HTMLElement>('.msg')].find((m) => m.getBoundingClientRect().top >= box().top);
    let worst = 0;
    let steps = 0;
    while (!(el.scrollTop === 0 && el.textContent?.includes('Message 0:')) && steps < 2_000) {
      const row = firstInView();
      const text = row?.textContent?.slice(0, 14) ?? '';
      const y = row ? row.getBoundingClientRect().top : 0;
      const target = Math.max(0, el.scrollTop - (el.clientHeight * 3) / 4);
      const moved = el.scrollTop - target;
      el.scrollTop = target;
      await frames();
      await new Promise((r) => setTimeout(r, 20));
      const same = [...el.querySelectorAll<HTMLElement>('.msg')].find((m) => m.textContent?.startsWith(text));
      if (row && el.scrollTop === target)
        worst = Math.max(worst, same ? Math.abs(same.getBoundingClientRect().top - (y + moved)) : Infinity);
      steps++;
    }
    return { worst, steps, top: el.scrollTop };
  });
  expect(up.top).toBe(0);
  await expect(page.getByText('Message 0:', { exact: false }).first()).toBeInViewport();
  expect(up.worst).toBeLessThan(4);
  expect(await list.evaluate((el) => el.querySelectorAll('[data-index]').length)).toBeLessThan(60);
  await shots(page, 'ux-08-first-message');

  // Back down to the newest message, a screen at a time; there the list follows a new reply again.
  await list.evaluate(async (el) => {
    for (let i = 0; i < 2_000 && el.scrollHeight - el.scrollTop - el.clientHeight > 1; i++) {
      el.scrollTop += el.clientHeight;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
  });
  await expect(page.getByText('Message 2399:')).toBeInViewport();
  await send(page, 'One more');
  await expect(page.getByText('A new answer at the bottom.')).toBeInViewport();
});

test('a new session takes the last working directory; the header shows the open session’s', async ({ page }) => {
  const a = await openWith(page, []);
  const dir = join(a.workspaceDir, 'project');
  mkdirSync(dir, { recursive: true });
  await page.getByTestId('workdir').fill(dir);
  await page.getByTestId('workdir').press('Enter');
  await expect(page.getByTestId('header-workdir')).toContainText(dir);
  await page.getByTestId('new-session').click();
  // The new chat is open (its own message box: one typed into the old one before the switch would be left there).
  await expect(page.getByTestId('session-item')).toHaveCount(2);
  await expect(page.getByTestId('session-item').first()).toHaveClass(/active/);
  await expect(page.getByTestId('workdir')).toHaveValue(dir);
  await expect(page.getByTestId('header-workdir')).toContainText(dir);
  await send(page, '/new');
  await expect(page.getByTestId('session-item')).toHaveCount(3);
  await expect(page.getByTestId('workdir')).toHaveValue(dir);
});

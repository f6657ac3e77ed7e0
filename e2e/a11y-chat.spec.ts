/**
 * axe on the chat with each kind of card, the Inbox holding them, and the viewer with each kind of file, in both
 * themes (docs/ui.md "Accessibility"; e2e/axe.ts): an approval with its diff and bypass choice, a command with its
 * output, a question and its answer, a rejected and a failed call, a sub-agent, an MCP call; Markdown, source,
 * text, images, PDF, HTML, LaTeX, a binary file and a write's diff. Any violation fails the test (e2e/axe.ts says which
 * could be accepted, and none is).
 */
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { expectAccessible } from './axe';
import { closeChatApp, openWith, send } from './chat-kit';
import { callBridge } from './fixtures';
import { makePdf } from '../test/fixtures/viewer/make-pdf';
import { makePng } from '../test/helpers/png';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

test.afterEach(closeChatApp);

const card = (page: Page, tool: string) => page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`);

/** The Inbox holding an item (by its test id), checked, and closed again. */
async function inboxChecked(page: Page, item: string, screen: string): Promise<void> {
  await page.getByTestId('open-inbox').click();
  await expect(page.getByTestId(item)).toBeVisible();
  await expectAccessible(page, screen);
  await page.getByTestId('inbox').getByRole('button', { name: 'Close' }).click();
}

test('the chat with every kind of card, and the Inbox holding an approval and a question', async ({ page }) => {
  test.setTimeout(180_000);
  const app = await openWith(page, [
    {
      match: 'Write',
      toolCalls: [{ name: 'write_file', arguments: { path: 'hello.txt', content: 'Hello\nWorld\n' } }],
    },
    { match: 'Write', text: 'Written.' },
    {
      match: 'Edit',
      toolCalls: [{ name: 'edit_file', arguments: { path: 'notes/a.md', old_string: 'one', new_string: 'ONE' } }],
    },
    { match: 'Edit', text: 'Edited.' },
    { match: 'Count', toolCalls: [{ name: 'execute_cmd', arguments: { command: 'seq 1 12' } }] },
    { match: 'Count', text: 'Counted.' },
    { match: 'Read', toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] },
    { match: 'Read', text: 'It is not there.' },
    {
      match: 'Ask',
      toolCalls: [
        {
          name: 'ask_user_clarification',
          arguments: {
            title: 'Pick a format',
            question: 'Markdown or **plain text**?',
            suggested_answers: ['Markdown'],
          },
        },
      ],
    },
    { match: 'Ask', text: 'Noted.' },
    {
      match: 'Explore',
      toolCalls: [
        {
          name: 'execute_task',
          arguments: { mode: 'sync', agent_id: 'code-explorer', prompt: 'SUB: list it', title: 'List the folder' },
        },
      ],
    },
    { match: 'SUB', toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
    { match: 'SUB', text: 'The folder holds **hello.txt**.' },
    { match: 'Explore', text: 'Explored.' },
  ]);
  mkdirSync(join(app.workspaceDir, 'notes'), { recursive: true });
  writeFileSync(join(app.workspaceDir, 'notes', 'a.md'), 'one\ntwo\n');

  await send(page, 'Write the file');
  await expect(page.getByTestId('approval-card')).toBeVisible();
  await expectAccessible(page, 'chat: approval of a write, with its diff');
  await inboxChecked(page, 'inbox-item', 'Inbox with an approval');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
  await expect(card(page, 'write_file')).toHaveAttribute('data-status', 'done');

  await send(page, 'Edit the notes');
  await expect(page.getByTestId('bypass-choice')).toBeVisible();
  await expectAccessible(page, 'chat: approval of an edit, with the bypass choice');
  await page.getByTestId('approval-card').getByLabel('Note to the agent').fill('Not now.');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Reject' }).click();
  await expect(card(page, 'edit_file')).toHaveAttribute('data-status', 'rejected');

  await send(page, 'Count to twelve');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
  await expect(card(page, 'execute_cmd').getByTestId('exit-code')).toHaveText('exit code 0');
  await send(page, 'Read the missing file');
  await expect(card(page, 'read_file')).toHaveAttribute('data-status', 'failed');
  await expectAccessible(page, 'chat: a command with its output, a rejected and a failed call');
  await card(page, 'execute_cmd').getByTestId('tool-head').click();
  await expectAccessible(page, 'chat: a command card opened');

  await send(page, 'Ask me something');
  await expect(page.getByTestId('question-card')).toBeVisible();
  await expectAccessible(page, 'chat: a question');
  await inboxChecked(page, 'inbox-question', 'Inbox with a question');
  await page.getByTestId('question-card').getByTestId('suggested-answer').click();
  await expect(page.getByTestId('answered-question')).toBeVisible();

  await send(page, 'Explore the folder');
  const sub = page.locator('[data-testid="subagent-card"][data-depth="1"]');
  await expect(sub).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('msg-assistant').last()).toContainText('Explored.');
  await expectAccessible(page, 'chat: an answered question and a sub-agent');
});

test('the chat with an MCP call waiting, and done', async ({ page }) => {
  test.setTimeout(120_000);
  await openWith(page, [
    { toolCalls: [{ name: 'activate_tools', arguments: { groups: ['everything'] } }] },
    { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello from MCP' } }] },
    { text: 'The server echoed your message.' },
  ]);
  await callBridge(page, 'mcp:save', {
    name: 'everything',
    transport: 'stdio',
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
  });
  await send(page, 'Echo with the everything server');
  const call = card(page, 'mcp__everything__echo');
  await expect(call).toHaveAttribute('data-status', 'pending', { timeout: 30_000 });
  await expectAccessible(page, 'chat: an MCP call waiting');
  await call.getByRole('button', { name: 'Approve once' }).click();
  await expect(call).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await call.getByTestId('tool-head').click();
  await expect(call.getByTestId('tool-body')).toContainText('Echo: hello from MCP');
  await expectAccessible(page, 'chat: an MCP call done, opened');
});

test('the viewer with each kind of file, and a write’s diff', async ({ page }) => {
  test.setTimeout(180_000);
  const app = await openWith(page, [
    {
      toolCalls: [
        { name: 'edit_file', arguments: { path: 'plan.txt', old_string: 'step one', new_string: 'step ONE' } },
      ],
    },
    { text: 'Edited the plan.' },
  ]);
  const put = (rel: string, content: string | Buffer) => {
    mkdirSync(join(app.workspaceDir, rel, '..'), { recursive: true });
    writeFileSync(join(app.workspaceDir, rel), content);
  };
  put('plan.txt', 'step one\nstep two\n');
  put(
    'docs/guide.md',
    '# Guide\n\nIntro with **bold** and a [link](other.md).\n\n## Setup\n\n```ts\nconst a = 1;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
  );
  put('src/main.ts', 'export function main(): number {\n  return 42;\n}\n');
  put('pic.png', makePng(64, 48));
  put(
    'icon.svg',
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="16" fill="teal"/></svg>',
  );
  put(
    'doc.pdf',
    makePdf(2, (n) => `Page ${n} of the PDF`),
  );
  put('page.html', '<!doctype html><html><body><h1>A page</h1><p>Shown in a sandbox.</p></body></html>');
  put('model.bin', Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0xff]));
  put('paper/main.tex', '\\documentclass{article}\n\\begin{document}\nThe viewer compiled this.\n\\end{document}\n');

  const open = (path: string) => callBridge(page, 'viewer:open', { path });
  await open('docs/guide.md');
  await expect(page.getByTestId('viewer-markdown')).toContainText('Intro with bold');
  await expectAccessible(page, 'viewer: Markdown');
  await open('src/main.ts');
  await expect(page.getByTestId('viewer-code')).toContainText('return 42');
  await expectAccessible(page, 'viewer: source');
  await open('plan.txt');
  await expect(page.getByTestId('viewer-code')).toContainText('step two');
  await expectAccessible(page, 'viewer: plain text');
  await open('pic.png');
  await expect(page.getByTestId('viewer-image')).toBeVisible();
  await expectAccessible(page, 'viewer: a raster image');
  await open('icon.svg');
  await expect(page.getByTestId('viewer-image')).toBeVisible();
  await expectAccessible(page, 'viewer: an SVG');
  await open('doc.pdf');
  await expect(page.getByTestId('viewer-pdf').locator('.textLayer').first()).toContainText('Page 1 of the PDF', {
    timeout: 20_000,
  });
  await expectAccessible(page, 'viewer: PDF');
  await open('page.html');
  await expect(page.getByTestId('viewer-html-frame')).toBeVisible();
  await expectAccessible(page, 'viewer: HTML');
  await open('model.bin');
  await expect(page.getByTestId('viewer-binary')).toContainText('model.bin');
  await expectAccessible(page, 'viewer: a binary file');
  await open('paper/main.tex');
  await expect(page.getByTestId('latex-status')).toContainText('Compiled', { timeout: 60_000 });
  await expectAccessible(page, 'viewer: LaTeX');

  await send(page, 'Edit the plan');
  await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
  await expect(card(page, 'edit_file')).toHaveAttribute('data-status', 'done');
  await page.getByTestId('tool-diff').click();
  await expect(page.getByTestId('viewer-diff-editor')).toHaveAttribute('data-ready', 'yes');
  await expectAccessible(page, 'viewer: the diff of a write');

  // A narrow window (docs/ui.md "Fits any window"): the viewer over the chat, put aside, and the rail's chat list.
  await page.setViewportSize({ width: 900, height: 800 });
  await expect(page.getByTestId('viewer')).toHaveClass(/over-chat/);
  await expectAccessible(page, 'viewer over the chat (900 px)');
  await page.getByTestId('viewer-hide').click();
  await expect(page.getByTestId('viewer-show')).toBeVisible();
  await expectAccessible(page, 'the chat with the viewer put aside, the chat rail (900 px)');
  await page.getByTestId('rail-chats').click();
  await expect(page.locator('.session-flyout')).toBeVisible();
  await expectAccessible(page, "the rail's chat list open (900 px)");
});

/**
 * The viewer tied to what the agent does, in Chromium against the web shape (docs/viewer.md): live reload after a
 * tool's write and after another program's, Diff and Revert of a tool call, a relative link in the agent's message,
 * and go-to-line from a card's path and its search hits. The kinds themselves are in `viewer.spec.ts`.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, startApp, stopApp, test, type App } from './fixtures';
import { configureModel, startLlmProcess } from './scripted-llm';
import { openFile, putInWorkspace, shoot } from './viewer-helpers';

let app: App;

test.beforeEach(async ({ page }) => {
  app = await startApp(page);
});

test.afterEach(async () => {
  await stopApp(app);
});

const put = (rel: string, content: string | Buffer): string => putInWorkspace(app, rel, content);

test('live reload after a write, then Diff and Revert of that edit_file through the approval card', async ({
  page,
}) => {
  const file = put('notes/plan.txt', 'step one\nstep two\n');
  const llm = await startLlmProcess(app.dataDir, [
    {
      toolCalls: [
        {
          name: 'edit_file',
          arguments: { path: 'notes/plan.txt', old_string: 'step one', new_string: 'step ONE (edited)' },
        },
      ],
    },
    { text: 'Edited the plan.' },
  ]);
  try {
    await page.goto(app.url);
    await configureModel(page, llm.url);
    await openFile(page, 'notes/plan.txt');
    const code = page.getByTestId('viewer-code');
    await expect(code).toContainText('step one');

    await page.getByTestId('composer').fill('Edit the plan');
    await page.getByTestId('send').click();
    await page.getByTestId('approval-card').getByRole('button', { name: 'Approve once' }).click();
    await expect(page.locator('[data-testid="tool-card"][data-tool="edit_file"]')).toHaveAttribute(
      'data-status',
      'done',
    );
    // The open tab reloaded by itself.
    await expect(code).toContainText('step ONE (edited)');

    await page.getByTestId('tool-diff').click();
    const diff = page.getByTestId('viewer-diff-editor');
    await expect(diff).toHaveAttribute('data-ready', 'yes');
    await expect(diff).toContainText('step one');
    await expect(diff).toContainText('step ONE (edited)');
    // Side by side even at the viewer's usual width (Monaco would otherwise fall back to inline), then inline.
    const monacoDiff = diff.locator('.monaco-diff-editor');
    await expect(monacoDiff).toHaveClass(/side-by-side/);
    await expect(diff.locator('.editor.original')).toContainText('step one');
    await expect(diff.locator('.editor.modified')).toContainText('step ONE (edited)');
    await shoot(page, 'diff');
    await page.getByRole('button', { name: 'Inline' }).click();
    await expect(monacoDiff).not.toHaveClass(/side-by-side/);
    await shoot(page, 'diff-inline');

    // The file changed after the call: the three versions are shown, and "Keep" writes nothing.
    writeFileSync(file, 'step ONE (edited)\nstep two\nstep three, by hand\n');
    const editCard = page.locator('[data-testid="tool-card"][data-tool="edit_file"]');
    await editCard.getByTestId('tool-revert').click();
    const conflict = page.getByTestId('revert-conflict');
    await expect(conflict).toContainText('The file changed after this call');
    await expect(conflict.locator('section')).toHaveText([
      /^Before this call.*step\sone/s,
      /^After this call.*step\sONE\s\(edited\)/s,
      /^Now.*step\sthree,\sby\shand/s,
    ]);
    await shoot(page, 'revert-conflict');
    await conflict.getByRole('button', { name: 'Keep the file as it is' }).click();
    await expect(conflict).toHaveCount(0);
    expect(readFileSync(file, 'utf8')).toBe('step ONE (edited)\nstep two\nstep three, by hand\n');
    writeFileSync(file, 'step ONE (edited)\nstep two\n');

    await editCard.getByTestId('tool-revert').click();
    await expect(page.getByTestId('revert-status')).toContainText('waits for your approval');
    const revertCard = page.getByTestId('approval-card');
    await expect(revertCard).toBeVisible();
    await shoot(page, 'revert-approval');
    expect(readFileSync(file, 'utf8')).toBe('step ONE (edited)\nstep two\n');
    await revertCard.getByRole('button', { name: 'Approve once' }).click();
    await expect.poll(() => readFileSync(file, 'utf8')).toBe('step one\nstep two\n');
  } finally {
    llm.stop();
  }
});

test('live reload from disk: a Markdown file edited outside the app, and a LaTeX input that changes its PDF', async ({
  page,
}) => {
  put('live/readme.md', '# Live\n\nfirst version\n');
  put('live/doc.tex', '\\documentclass{article}\n\\begin{document}\n\\input{inc}\n\\end{document}\n');
  put('live/inc.tex', 'Included text version one.');
  await page.goto(app.url);
  await openFile(page, 'live/readme.md');
  await expect(page.getByTestId('viewer-markdown')).toContainText('first version');
  await page.waitForTimeout(400); // the watcher is ready
  put('live/readme.md', '# Live\n\nsecond version, written by another program\n');
  await expect(page.getByTestId('viewer-markdown')).toContainText('second version');

  await openFile(page, 'live/doc.tex');
  const text = page.getByTestId('viewer-pdf').locator('.page[data-page-number="1"] .textLayer');
  await expect(text).toContainText('version one', { timeout: 30_000 });
  await page.waitForTimeout(400);
  put('live/inc.tex', 'Included text version two.');
  await expect(text).toContainText('version two', { timeout: 30_000 });
});

test('a log a program keeps appending to: the tab reloads while it is written and, scrolled to its end, follows the end', async ({
  page,
}) => {
  const lines = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => `log line ${from + i}`).join('\n') + '\n';
  const file = put('logs/build.log', lines(1, 301));
  await page.goto(app.url);
  await openFile(page, 'logs/build.log');
  const code = page.getByTestId('viewer-code');
  await expect(code).toHaveAttribute('data-ready', 'yes');
  await expect(code).toContainText('log line 1');
  await code.locator('.view-lines').click();
  await page.keyboard.press('Control+End');
  await expect(code).toContainText('log line 300');
  await page.waitForTimeout(400); // the watcher is ready
  // Appended every 100 ms, never 300 ms of quiet: the tab still reloads (at least once a second), and shows the end.
  let next = 301;
  const writer = setInterval(() => {
    appendFileSync(file, lines(next, next + 5));
    next += 5;
  }, 100);
  try {
    // Some line past 320 (by the time a busy machine reloads, 320 itself may have scrolled past at the end); \s, as
    // Monaco shows spaces as no-break spaces, which a pattern (unlike a string) does not take for spaces.
    await expect(code).toContainText(/log\sline\s(3[2-9]\d|[4-9]\d\d|\d{4})/, { timeout: 2_500 });
    await expect(code).not.toContainText('log line 250');
    await shoot(page, 'log-follows-end');
  } finally {
    clearInterval(writer);
  }
  // Scrolled back to the top, a reload keeps the top in view.
  await page.keyboard.press('Control+Home');
  await expect(code).toContainText('log line 2log line 3');
  appendFileSync(file, lines(next, next + 5));
  await page.waitForTimeout(1_000);
  await expect(code).toContainText('log line 2log line 3');
  await expect(code).not.toContainText(`log line ${next + 4}`);
});

test("a relative link in the agent's message opens the file in the viewer", async ({ page }) => {
  put('notes/todo.md', '# Todo\n\n- ship the viewer\n');
  const llm = await startLlmProcess(app.dataDir, [{ text: 'The list is in [the todo file](notes/todo.md).' }]);
  try {
    await page.goto(app.url);
    await configureModel(page, llm.url);
    await page.getByTestId('composer').fill('Where is the list?');
    await page.getByTestId('send').click();
    await page.getByTestId('msg-assistant').last().getByText('the todo file').click();
    await expect(page.getByTestId('viewer-markdown')).toContainText('ship the viewer');
    await shoot(page, 'chat-link');
  } finally {
    llm.stop();
  }
});

test("go-to-line: a read_file card's path opens at its offset, a search_file card's at its first hit, each search hit at its line, again after scrolling away", async ({
  page,
}) => {
  const lines = Array.from({ length: 300 }, (_, i) =>
    i + 1 === 250 ? 'const needle = 250;' : `// filler line ${i + 1}`,
  );
  put('src/long.ts', lines.join('\n'));
  put(
    'src/lib/other.ts',
    Array.from({ length: 80 }, (_, i) => (i + 1 === 60 ? 'export const needle = 60;' : `// other ${i + 1}`)).join('\n'),
  );
  const llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'read_file', arguments: { path: 'src/long.ts', offset: 120, limit: 5 } }] },
    { toolCalls: [{ name: 'search_file', arguments: { path: 'src/long.ts', pattern: 'needle' } }] },
    { toolCalls: [{ name: 'grep_files', arguments: { path: 'src', pattern: 'needle' } }] },
    { text: 'Found it.' },
  ]);
  try {
    await page.goto(app.url);
    await configureModel(page, llm.url);
    await page.getByTestId('composer').fill('Find the needle');
    await page.getByTestId('send').click();
    await expect(page.getByTestId('msg-assistant').last()).toContainText('Found it.');
    const code = page.getByTestId('viewer-code');
    // The selected line is the one the call names, and it is on screen (line 1 is not).
    const selectedLine = async () =>
      page.evaluate(() => {
        const host = document.querySelector('[data-testid="viewer-code"]');
        const current = host?.querySelector('.current-line');
        const top = current?.getBoundingClientRect().top ?? -1;
        const numbers = [...(host?.querySelectorAll('.line-numbers') ?? [])];
        return numbers.find((n) => Math.abs(n.getBoundingClientRect().top - top) < 3)?.textContent ?? null;
      });
    // The revealed line carries a mark of its own (plain in both themes), on the line selected.
    const markedLine = async () =>
      page.evaluate(() => {
        const host = document.querySelector('[data-testid="viewer-code"]');
        const mark = host?.querySelector('.viewer-line-revealed');
        const top = mark?.getBoundingClientRect().top ?? -1;
        return (
          [...(host?.querySelectorAll('.line-numbers') ?? [])].find(
            (n) => Math.abs(n.getBoundingClientRect().top - top) < 3,
          )?.textContent ?? null
        );
      });
    // The person moves to the top of the file: line 1 is selected, line 250 off screen.
    const scrollToTop = async () => {
      await code.click({ position: { x: 120, y: 80 } });
      await page.keyboard.press('Control+Home');
      await expect(code).toContainText('filler line 1');
      await expect.poll(selectedLine).toBe('1');
    };
    await page.locator('[data-testid="tool-card"][data-tool="read_file"]').getByTestId('tool-path').click();
    await expect(code).toHaveAttribute('data-ready', 'yes');
    await expect(code).toContainText('filler line 120');
    await expect.poll(selectedLine).toBe('120');
    await expect.poll(markedLine).toBe('120');
    await shoot(page, 'goto-line');
    const searchCard = page.locator('[data-testid="tool-card"][data-tool="search_file"]');
    await searchCard.getByTestId('tool-path').click();
    await expect(page.getByTestId('viewer-tab')).toHaveCount(1);
    await expect(code).toContainText('needle');
    await expect.poll(selectedLine).toBe('250');

    // Scrolled away, a second click on the same path (same line) jumps back.
    await scrollToTop();
    await searchCard.getByTestId('tool-path').click();
    await expect.poll(selectedLine).toBe('250');

    // Each hit of a search result opens its file at its line: search_file's in the file it searched…
    await searchCard.getByTestId('tool-head').click();
    await expect(searchCard.getByTestId('tool-hit')).toHaveText(['250']);
    await scrollToTop();
    await searchCard.getByTestId('tool-hit').click();
    await expect.poll(selectedLine).toBe('250');
    // …grep_files' under the folder it searched, in a tab of its own.
    const grepCard = page.locator('[data-testid="tool-card"][data-tool="grep_files"]');
    await grepCard.getByTestId('tool-head').click();
    await expect(grepCard.getByTestId('tool-hit')).toHaveText(['long.ts:250', 'lib/other.ts:60']);
    await shoot(page, 'search-hits');
    await grepCard.getByTestId('tool-hit').last().click();
    await expect(page.getByTestId('viewer-tab')).toHaveCount(2);
    await expect(code).toContainText('export const needle = 60;');
    await expect.poll(selectedLine).toBe('60');
    await grepCard.getByTestId('tool-hit').first().click();
    await expect(page.getByTestId('viewer-tab')).toHaveCount(2);
    await expect(code).toContainText('const needle = 250;');
    await expect.poll(selectedLine).toBe('250');
  } finally {
    llm.stop();
  }
});

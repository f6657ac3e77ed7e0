/**
 * The viewer as a person uses it, in Chromium against the web shape (docs/viewer.md): each kind with a real
 * fixture written into the workspace, opened the way the app opens files (`viewer:open`, as `show_file_to_user`
 * does; a typed path; a link), screenshots in both colour schemes. Attacks are real: an SVG and an HTML page
 * that try to run script and beacon to a local spy server, a Markdown file with a remote image, a secrets/ path.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { makePdf } from '../test/fixtures/viewer/make-pdf';
import { startSpyServer, type SpyServer } from '../test/fixtures/viewer/spy-server';
import { callBridge, expect, screenshotPath, startApp, stopApp, test, type App } from './fixtures';
import { configureModel, startLlmProcess } from './scripted-llm';

let app: App;
let spy: SpyServer;

test.beforeEach(async ({ page }) => {
  app = await startApp(page);
  spy = await startSpyServer();
});

test.afterEach(async () => {
  await spy.close();
  await stopApp(app);
});

function put(rel: string, content: string | Buffer): string {
  const full = join(app.workspaceDir, rel);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
  return full;
}

async function openFile(page: Page, path: string): Promise<void> {
  await callBridge(page, 'viewer:open', { path });
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(150);
    await page.screenshot({ path: screenshotPath(`viewer-${name}-${scheme}`) });
  }
  await page.emulateMedia({ colorScheme: 'dark' });
}

test('Markdown: sanitized, remote image not loaded, relative link opens a tab, outline', async ({ page }) => {
  put('docs/guide.md', [
    '# Guide',
    '',
    'Intro text with **bold** and a [relative link](other.md) and [a script link](javascript:alert(1)).',
    '',
    `![tracker](${spy.url}/pixel.png)`,
    '',
    `<img src="${spy.url}/raw.png" onerror="fetch('${spy.url}/onerror')">`,
    '',
    '<iframe srcdoc="<script>parent.alert(1)</script>"></iframe>',
    '',
    '<a href="file:///etc/passwd">passwd</a>',
    '',
    '## Setup',
    '',
    '```ts',
    'const answer: number = 42;',
    '```',
    '',
    '## Usage',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
  ].join('\n'));
  put('docs/other.md', '# Other page\n\nReached by a relative link.\n');
  await page.goto(app.url);
  await openFile(page, 'docs/guide.md');
  const md = page.getByTestId('viewer-markdown');
  await expect(md).toContainText('Intro text with bold');
  await expect(page.getByTestId('viewer-outline')).toContainText('Setup');
  await expect(md.locator('iframe, script, img[src^="http"]')).toHaveCount(0);
  await expect(md.locator('a[href^="javascript"], a[href^="file"]')).toHaveCount(0);
  await expect(md).toContainText('tracker — click to load');
  await shoot(page, 'markdown');
  await page.waitForTimeout(300);
  expect(spy.hits).toEqual([]);

  await md.getByText('relative link').click();
  await expect(page.getByTestId('viewer-tab')).toHaveCount(2);
  await expect(page.getByTestId('viewer-markdown')).toContainText('Reached by a relative link.');
  // The same file again reuses its tab.
  await openFile(page, 'docs/other.md');
  await expect(page.getByTestId('viewer-tab')).toHaveCount(2);
  await shoot(page, 'markdown-link');
});

test('large Markdown: the first screen at once, the outline jumps anywhere, a reload from disk keeps the scroll position', async ({ page }) => {
  test.setTimeout(120_000);
  const sections = (edit: string) =>
    Array.from({ length: 3000 }, (_, i) => `## Part ${i}\n\nParagraph ${i} with **bold** text${i === 5 ? edit : ''}, a [link](#part-${i + 1}) and a list:\n\n- one\n- two\n`).join('\n');
  put('docs/big.md', `# Big document\n\n${sections('')}\n# The end\n\nLast words.\n`);
  await page.goto(app.url);
  await openFile(page, 'docs/big.md');
  const md = page.getByTestId('viewer-markdown');
  await expect(md).toHaveAttribute('data-first-screen', 'ready');
  await expect(md).toContainText('Paragraph 0 with bold text');
  // Read whole before rendered: the outline already lists the last heading.
  const outline = page.getByTestId('viewer-outline');
  await outline.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await outline.getByRole('link', { name: 'The end' }).click();
  await expect(md.getByRole('heading', { name: 'The end' })).toBeInViewport();
  await expect(md.getByText('Last words.')).toBeVisible();
  // An #anchor link jumps within the document.
  await outline.evaluate((el) => (el.scrollTop = 1195 * 22)); // the outline is virtualized: rows of 22 px
  await outline.getByRole('link', { name: 'Part 1200', exact: true }).click();
  await expect(md.getByRole('heading', { name: 'Part 1200', exact: true })).toBeInViewport();
  await md.locator('p', { hasText: 'Paragraph 1200 with' }).getByRole('link', { name: 'link' }).click();
  await expect(md.getByRole('heading', { name: 'Part 1201', exact: true })).toBeInViewport();
  // Every part renders in the background.
  await expect(md).toHaveAttribute('data-rendered', 'all', { timeout: 60_000 });
  await shoot(page, 'markdown-large');

  // Another program edits the top of the file: the part on screen keeps its place.
  const scroller = page.locator('.viewer-markdown-scroll');
  const heading = md.getByRole('heading', { name: 'Part 1500', exact: true });
  await heading.scrollIntoViewIfNeeded();
  const before = await heading.evaluate((h) => h.getBoundingClientRect().top);
  const top = await scroller.evaluate((el) => el.scrollTop);
  expect(top).toBeGreaterThan(10_000);
  put('docs/big.md', `# Big document\n\n${sections(' (edited on disk)')}\n# The end\n\nLast words.\n`);
  await expect(md).toContainText('Paragraph 5 with bold text (edited on disk)', { timeout: 20_000 });
  await expect.poll(async () => Math.abs((await heading.evaluate((h) => h.getBoundingClientRect().top)) - before)).toBeLessThan(40);
});

test('source: a 50,000-line file in read-only Monaco, highlighted', async ({ page }) => {
  test.setTimeout(120_000); // writing and loading 2 MB of source on a shared 2-core machine
  const lines = Array.from({ length: 50_000 }, (_, i) => `export const value${i} = ${i}; // line ${i + 1}`);
  put('src/big.ts', lines.join('\n'));
  await page.goto(app.url);
  await openFile(page, 'src/big.ts');
  const code = page.getByTestId('viewer-code');
  await expect(code).toHaveAttribute('data-ready', 'yes');
  await expect(code.locator('.view-line').first()).toContainText('export const value0');
  // Highlighted: the keyword has its own token colour class.
  await expect(code.locator('.view-line span[class*="mtk"]').first()).toBeVisible();
  // Read-only: typing does nothing.
  await code.locator('.view-lines').click();
  await page.keyboard.type('XYZ');
  await expect(code).not.toContainText('XYZ');
  await shoot(page, 'code');
});

test('images: raster with fit/actual, and an SVG whose script and onload never run', async ({ page }) => {
  // A 2x2 PNG.
  put('img/dot.png', Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64'));
  put('img/evil.svg', `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" onload="fetch('${spy.url}/svg-onload')">
  <script>new Image().src='${spy.url}/svg-script'; parent.document.title='pwned';</script>
  <rect width="200" height="120" fill="#4a8"/><text x="20" y="70" font-size="24" fill="#fff">Safe SVG</text></svg>`);
  await page.goto(app.url);
  await openFile(page, 'img/dot.png');
  await expect(page.getByTestId('viewer-image')).toBeVisible();
  await page.getByRole('button', { name: 'Actual size' }).click();
  await expect(page.getByTestId('viewer-file')).toContainText('2 × 2');
  await openFile(page, 'img/evil.svg');
  const svg = page.getByTestId('viewer-image');
  await expect(svg).toHaveAttribute('src', /^\/viewer\/file\//);
  await expect.poll(() => svg.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(200);
  await expect(page.locator('svg script')).toHaveCount(0); // never inlined into the page
  await shoot(page, 'svg');
  await page.waitForTimeout(300);
  expect(spy.hits).toEqual([]);
  expect(await page.title()).toBe('Skald');
});

test('PDF: pages render lazily, text is selectable, find works', async ({ page }) => {
  put('papers/report.pdf', makePdf(12, (p) => (p === 7 ? 'The needle is on page seven' : `Report page ${p}`)));
  await page.goto(app.url);
  await openFile(page, 'papers/report.pdf');
  await expect(page.getByTestId('pdf-pages')).toContainText('of 12');
  const pdf = page.getByTestId('viewer-pdf');
  await expect(pdf.locator('.page[data-page-number="1"] canvas')).toBeVisible();
  await expect(pdf.locator('.page[data-page-number="1"] .textLayer')).toContainText('Report page 1');
  // Lazy: the last page has no canvas until it is scrolled to.
  await expect(pdf.locator('.page[data-page-number="12"] canvas')).toHaveCount(0);
  await page.getByLabel('Find in PDF').fill('needle');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(page.getByTestId('pdf-found')).toContainText('1 of 1');
  await expect(pdf.locator('.page[data-page-number="7"] .textLayer .highlight')).toBeVisible();
  await shoot(page, 'pdf');
});

test('HTML: sandboxed scripts cannot reach the parent, cookies, storage or the network', async ({ page }) => {
  put('site/index.html', `<!doctype html><html><head><title>Agent page</title>
<link rel="prefetch" href="${spy.url}/prefetch">
</head><body><h1>Agent-written page</h1><img src="pic.svg" width="60" alt="own folder image"><ul id="out"></ul>
<form id="f" action="${spy.url}/form" method="post"><input name="x" value="1"></form>
<img src="${spy.url}/beacon.png"><button id="go">navigate away</button>
<script>
  const out = document.getElementById('out');
  const note = (name, fn) => { let r; try { r = 'ALLOWED ' + String(fn()); } catch (e) { r = 'blocked (' + e.name + ')'; } const li = document.createElement('li'); li.textContent = name + ': ' + r; out.appendChild(li); };
  note('parent.document', () => window.parent.document.title);
  note('parent.skald', () => window.parent.skald.app);
  note('document.cookie', () => document.cookie);
  note('localStorage', () => localStorage.setItem('k', 'v'));
  note('window.open', () => { const w = window.open('${spy.url}/popup'); if (!w) throw { name: 'null window' }; return w; });
  note('top.location', () => { window.top.location = '${spy.url}/top'; return 'set'; });
  fetch('${spy.url}/fetch').then(() => note('fetch', () => 'sent'), () => note('fetch', () => { throw { name: 'rejected' }; }));
  try { document.getElementById('f').submit(); } catch (e) {}
  document.getElementById('go').onclick = () => { location.href = '${spy.url}/navigate'; };
</script></body></html>`);
  put('site/pic.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60"><circle cx="30" cy="30" r="28" fill="#e94"/></svg>');
  await page.goto(app.url);
  const before = page.url();
  await openFile(page, 'site/index.html');
  const frameEl = page.getByTestId('viewer-html-frame');
  await expect(frameEl).toHaveAttribute('sandbox', 'allow-scripts');
  const frame = page.frameLocator('[data-testid="viewer-html-frame"]');
  await expect(frame.locator('h1')).toContainText('Agent-written page');
  await expect(frame.locator('#out')).toContainText('document.cookie: blocked');
  await expect(frame.locator('#out')).toContainText('localStorage: blocked');
  await expect(frame.locator('#out')).toContainText('parent.document: blocked');
  await expect(frame.locator('#out')).toContainText('parent.skald: blocked');
  await expect(frame.locator('#out')).toContainText('window.open: blocked');
  await expect(frame.locator('#out')).toContainText('fetch: blocked');
  await expect.poll(() => frame.locator('img[alt="own folder image"]').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(60);
  await page.waitForTimeout(500);
  await shoot(page, 'html');
  // Image, fetch, form, prefetch, popup and top navigation did not even open a connection.
  expect(spy.connections).toBe(0);
  // The frame navigating itself to another origin is refused by the app's frame-src: no request arrives
  // (Chromium may open a bare TCP connection first; docs/viewer.md "Known limits").
  await frame.locator('#go').click();
  await page.waitForTimeout(500);
  expect(spy.hits).toEqual([]);
  expect(page.url()).toBe(before);
  expect(await page.title()).toBe('Skald');
  await page.getByRole('button', { name: 'Source' }).click();
  await expect(page.getByTestId('viewer-code')).toHaveAttribute('data-ready', 'yes');
});

test('refusals: a secrets/ path, a file outside the working directory asks first, a FIFO, a missing file', async ({ page }) => {
  put('secrets/api.txt', 'sk-live-123');
  const outsideDir = join(app.dataDir, '..', `skald-outside-${Date.now()}`);
  mkdirSync(outsideDir, { recursive: true });
  writeFileSync(join(outsideDir, 'note.txt'), 'outside note');
  execFileSync('mkfifo', [join(app.workspaceDir, 'pipe')]);
  await page.goto(app.url);

  await openFile(page, 'secrets/api.txt');
  await expect(page.getByTestId('viewer-error')).toContainText('secrets/ folder');
  await expect(page.getByTestId('viewer-error')).toHaveAttribute('data-code', 'refused');
  await shoot(page, 'secrets-refused');

  await openFile(page, join(outsideDir, 'note.txt'));
  await expect(page.getByTestId('viewer-confirm')).toContainText('outside this session');
  await shoot(page, 'outside-confirm');
  await page.getByRole('button', { name: 'Show it' }).click();
  await expect(page.getByTestId('viewer-code')).toContainText('outside note');

  await openFile(page, 'pipe');
  await expect(page.getByTestId('viewer-error')).toContainText('FIFO');
  await openFile(page, 'nope.md');
  await expect(page.getByTestId('viewer-error')).toContainText('does not exist');

  // Tabs: Alt+W closes the active one.
  const count = await page.getByTestId('viewer-tab').count();
  await page.keyboard.press('Alt+w');
  await expect(page.getByTestId('viewer-tab')).toHaveCount(count - 1);
});

test('anything else: size, type and a hex head; "open with the system app" only where the desktop shell can', async ({ page }) => {
  put('model.bin', Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0xff]));
  await page.goto(app.url);
  await openFile(page, 'model.bin');
  const view = page.getByTestId('viewer-binary');
  await expect(view).toContainText('model.bin · 9 B · BIN file');
  await expect(view.locator('.viewer-hex')).toContainText('00000000  00 61 73 6d 01 00 00 00 ff');
  // The web shape has no way to start a program on the file's machine: no button, a note saying why.
  const button = view.getByRole('button', { name: 'Open with the system app…' });
  if (app.shape === 'web') {
    await expect(button).toHaveCount(0);
    await expect(view.getByTestId('system-open-unavailable')).toContainText('only offered in the desktop app');
  } else {
    await expect(button).toBeVisible();
  }
  await shoot(page, 'binary');
});

test('a path typed into the viewer opens; the panel resizes by its edge, maximizes and restores', async ({ page }) => {
  put('a.txt', 'first file');
  put('b.txt', 'second file');
  await page.goto(app.url);
  await openFile(page, 'a.txt');
  await page.getByTestId('viewer-open-path').fill('b.txt');
  await page.getByTestId('viewer-open-path').press('Enter');
  await expect(page.getByTestId('viewer-tab')).toHaveCount(2);
  await expect(page.getByTestId('viewer-code')).toContainText('second file');
  // Dragging the left edge 200 px to the left widens the panel by as much.
  const panel = page.getByTestId('viewer');
  const before = (await panel.boundingBox())!;
  const edge = (await page.getByRole('separator', { name: 'Resize the viewer' }).boundingBox())!;
  await page.mouse.move(edge.x + edge.width / 2, edge.y + 200);
  await page.mouse.down();
  await page.mouse.move(edge.x + edge.width / 2 - 100, edge.y + 200);
  await page.mouse.move(edge.x + edge.width / 2 - 200, edge.y + 200);
  await page.mouse.up();
  await expect.poll(async () => Math.round((await panel.boundingBox())!.width - before.width)).toBe(200);
  await page.getByRole('button', { name: 'Maximize the viewer' }).click();
  await expect(page.getByTestId('viewer')).toHaveClass(/maximized/);
  await shoot(page, 'maximized');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('viewer')).not.toHaveClass(/maximized/);
  await page.keyboard.press('Alt+[');
  await expect(page.getByTestId('viewer-code')).toContainText('first file');
});

test('live reload after a write, then Diff and Revert of that edit_file through the approval card', async ({ page }) => {
  const file = put('notes/plan.txt', 'step one\nstep two\n');
  const llm = await startLlmProcess(app.dataDir, [
    { toolCalls: [{ name: 'edit_file', arguments: { path: 'notes/plan.txt', old_string: 'step one', new_string: 'step ONE (edited)' } }] },
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
    await expect(page.locator('[data-testid="tool-card"][data-tool="edit_file"]')).toHaveAttribute('data-status', 'done');
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
    await expect(conflict.locator('section')).toHaveText([/^Before this call.*step\sone/s, /^After this call.*step\sONE\s\(edited\)/s, /^Now.*step\sthree,\sby\shand/s]);
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

test('LaTeX: a .tex compiles to a PDF, a second open is a cache hit, a broken one shows its error line', async ({ page }) => {
  put('paper/main.tex', '\\documentclass{article}\n\\begin{document}\n\\section{Results}\nThe viewer compiled this \\input{body}\n\\end{document}\n');
  put('paper/body.tex', 'paragraph from an input file.');
  put('paper/broken.tex', '\\documentclass{article}\n\\begin{document}\nFine line.\n\\badcommand{x}\n\\end{document}\n');
  await page.goto(app.url);
  await openFile(page, 'paper/main.tex');
  const pdf = page.getByTestId('viewer-pdf');
  await expect(pdf.locator('.page[data-page-number="1"] .textLayer')).toContainText('paragraph from an input file', { timeout: 30_000 });
  await expect(page.getByTestId('latex-status')).toContainText('Compiled');
  await shoot(page, 'latex');
  // Closing and opening again: same inputs, answered from the cache.
  await page.keyboard.press('Alt+w');
  await openFile(page, 'paper/main.tex');
  await expect(page.getByTestId('latex-status')).toContainText('From the cache');

  await openFile(page, 'paper/broken.tex');
  const error = page.getByTestId('latex-error');
  await expect(error).toContainText('broken.tex:4', { timeout: 30_000 });
  await expect(error).toContainText('Undefined control sequence');
  await error.getByRole('button', { name: 'Show the full log' }).click();
  await expect(page.getByTestId('latex-log')).toContainText('badcommand');
  await shoot(page, 'latex-error');
});

test('live reload from disk: a Markdown file edited outside the app, and a LaTeX input that changes its PDF', async ({ page }) => {
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

test("go-to-line: a read_file card's path opens at its offset, a search_file card's at its first hit, each search hit at its line, again after scrolling away", async ({ page }) => {
  const lines = Array.from({ length: 300 }, (_, i) => (i + 1 === 250 ? 'const needle = 250;' : `// filler line ${i + 1}`));
  put('src/long.ts', lines.join('\n'));
  put('src/lib/other.ts', Array.from({ length: 80 }, (_, i) => (i + 1 === 60 ? 'export const needle = 60;' : `// other ${i + 1}`)).join('\n'));
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
    const selectedLine = async () => page.evaluate(() => {
      const host = document.querySelector('[data-testid="viewer-code"]');
      const current = host?.querySelector('.current-line');
      const top = current?.getBoundingClientRect().top ?? -1;
      const numbers = [...(host?.querySelectorAll('.line-numbers') ?? [])];
      return numbers.find((n) => Math.abs(n.getBoundingClientRect().top - top) < 3)?.textContent ?? null;
    });
    // The revealed line carries a mark of its own (plain in both themes), on the line selected.
    const markedLine = async () => page.evaluate(() => {
      const host = document.querySelector('[data-testid="viewer-code"]');
      const mark = host?.querySelector('.viewer-line-revealed');
      const top = mark?.getBoundingClientRect().top ?? -1;
      return [...(host?.querySelectorAll('.line-numbers') ?? [])].find((n) => Math.abs(n.getBoundingClientRect().top - top) < 3)?.textContent ?? null;
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

/**
 * The viewer's kinds as a person uses them, in Chromium against the web shape (docs/viewer.md): each kind with a real
 * fixture written into the workspace, opened the way the app opens files (`viewer:open`, as `show_file_to_user`
 * does; a typed path), screenshots in both colour schemes. Attacks are real: an SVG and an HTML page that try to run
 * script and beacon to a local spy server, a Markdown file with a remote image, a secrets/ path. Live reload, diff,
 * revert, links from the chat and go-to-line are in `viewer-live.spec.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { makePdf } from '../test/fixtures/viewer/make-pdf';
import { startSpyServer, type SpyServer } from '../test/fixtures/viewer/spy-server';
import { callBridge, expect, startApp, stopApp, test, type App } from './fixtures';
import { openFile, putInWorkspace, shoot } from './viewer-helpers';

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

const put = (rel: string, content: string | Buffer): string => putInWorkspace(app, rel, content);

test('Markdown: sanitized, remote image not loaded, relative link opens a tab, outline', async ({ page }) => {
  put(
    'docs/guide.md',
    [
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
    ].join('\n'),
  );
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

test('large Markdown: the first screen at once, the outline jumps anywhere, a reload from disk keeps the scroll position', async ({
  page,
}) => {
  test.setTimeout(180_000); // 3,000 sections rendered, then all of them read and rendered again: slow on loaded cores
  const sections = (edit: string) =>
    Array.from(
      { length: 3000 },
      (_, i) =>
        `## Part ${i}\n\nParagraph ${i} with **bold** text${i === 5 ? edit : ''}, a [link](#part-${i + 1}) and a list:\n\n- one\n- two\n`,
    ).join('\n');
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
  // The watcher's event, the file read again and its parts rendered: over 20 s beside vitest on 2 loaded cores.
  await expect(md).toContainText('Paragraph 5 with bold text (edited on disk)', { timeout: 60_000 });
  await expect
    .poll(async () => Math.abs((await heading.evaluate((h) => h.getBoundingClientRect().top)) - before))
    .toBeLessThan(40);
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

test('text in UTF-16 (a PowerShell log, no known extension) opens as text, decoded by its byte-order mark', async ({
  page,
}) => {
  put(
    'logs/build.out',
    Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Build started\r\nÜbersetzung fertig: 3 Warnungen\r\n', 'utf16le'),
    ]),
  );
  await page.goto(app.url);
  await openFile(page, 'logs/build.out');
  const code = page.getByTestId('viewer-code');
  await expect(code).toHaveAttribute('data-ready', 'yes');
  await expect(code.locator('.view-line').nth(1)).toContainText('Übersetzung fertig: 3 Warnungen');
  await expect(page.getByTestId('viewer-binary')).toHaveCount(0);
  await shoot(page, 'utf16-text');
});

test('images: raster with fit/actual, and an SVG whose script and onload never run', async ({ page }) => {
  // A 2x2 PNG.
  put(
    'img/dot.png',
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
  put(
    'img/evil.svg',
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120" onload="fetch('${spy.url}/svg-onload')">
  <script>new Image().src='${spy.url}/svg-script'; parent.document.title='pwned';</script>
  <rect width="200" height="120" fill="#4a8"/><text x="20" y="70" font-size="24" fill="#fff">Safe SVG</text></svg>`,
  );
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
  put(
    'papers/report.pdf',
    makePdf(12, (p) => (p === 7 ? 'The needle is on page seven' : `Report page ${p}`)),
  );
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

test('PDF: documents share one worker, which outlives them; a file that is not a PDF says so and the next opens', async ({
  page,
}) => {
  put(
    'papers/a.pdf',
    makePdf(2, (p) => `First file page ${p}`),
  );
  put(
    'papers/b.pdf',
    makePdf(3, (p) => `Second file page ${p}`),
  );
  put('papers/broken.pdf', '%PDF-1.7 this is not a PDF at all');
  await page.goto(app.url);
  const closeViewer = async () => {
    await page.getByRole('button', { name: 'Close viewer' }).click();
    await page.getByTestId('viewer').waitFor({ state: 'detached' });
  };
  const firstPage = (text: string) =>
    expect(page.getByTestId('viewer-pdf').locator('.page[data-page-number="1"] .textLayer')).toContainText(text);
  await openFile(page, 'papers/a.pdf');
  await firstPage('First file page 1');
  await closeViewer();
  await openFile(page, 'papers/a.pdf');
  await firstPage('First file page 1');
  await openFile(page, 'papers/b.pdf'); // a second tab: the first document is closed as the second opens
  await firstPage('Second file page 1');
  await closeViewer();
  await openFile(page, 'papers/broken.pdf');
  await expect(page.getByTestId('viewer')).toContainText('This PDF could not be shown');
  await closeViewer();
  await openFile(page, 'papers/b.pdf');
  await firstPage('Second file page 1');
  // pdf.js left alone starts a worker (its 1.2 MB script) for every document: here, one for all five opens.
  const workerLoads = await page.evaluate(
    () => performance.getEntriesByType('resource').filter((e) => /pdf\.worker/.test(e.name)).length,
  );
  expect(workerLoads).toBe(1);
});

test('HTML: sandboxed scripts cannot reach the parent, cookies, storage or the network', async ({ page }) => {
  put(
    'site/index.html',
    `<!doctype html><html><head><title>Agent page</title>
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
</script></body></html>`,
  );
  put(
    'site/pic.svg',
    '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="60"><circle cx="30" cy="30" r="28" fill="#e94"/></svg>',
  );
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
  await expect
    .poll(() => frame.locator('img[alt="own folder image"]').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(60);
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

test('refusals: a secrets/ path, a file outside the working directory asks first, a FIFO, a missing file', async ({
  page,
}) => {
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

test('anything else: size, type and a hex head; "open with the system app" only where the desktop shell can', async ({
  page,
}) => {
  put('model.bin', Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0xff]));
  await page.goto(app.url);
  await openFile(page, 'model.bin');
  const view = page.getByTestId('viewer-binary');
  await expect(view).toContainText('model.bin · 9 B · BIN file');
  // 16 bytes a line where the viewer is wide enough, else 8 (BinaryView.tsx): never cut at the right edge.
  await expect(view.locator('.viewer-hex')).toContainText(
    /^00000000\s+00 61 73 6d 01 00 00 00\s+(ff|\.asm\.{4}\s+00000008\s+ff)/,
  );
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

test('LaTeX: a .tex compiles to a PDF, a second open is a cache hit, a broken one shows its error line', async ({
  page,
}) => {
  put(
    'paper/main.tex',
    '\\documentclass{article}\n\\begin{document}\n\\section{Results}\nThe viewer compiled this \\input{body}\n\\end{document}\n',
  );
  put('paper/body.tex', 'paragraph from an input file.');
  put(
    'paper/broken.tex',
    '\\documentclass{article}\n\\begin{document}\nFine line.\n\\badcommand{x}\n\\end{document}\n',
  );
  await page.goto(app.url);
  await openFile(page, 'paper/main.tex');
  const pdf = page.getByTestId('viewer-pdf');
  await expect(pdf.locator('.page[data-page-number="1"] .textLayer')).toContainText('paragraph from an input file', {
    timeout: 30_000,
  });
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

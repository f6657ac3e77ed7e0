/**
 * Viewer benchmarks (docs/viewer.md), in Chromium against the web shape with the core in this process:
 * - a 100-page PDF: from the open request (what a click on a tool path sends) to its first page painted;
 * - a 50,000-line TypeScript file: from the open request to the first lines on screen with syntax colours;
 * - a 2 MB Markdown file: from the open request to its first screen rendered (every part that meets the viewport);
 *   then, in the same open, a jump to its end (scrolled to the bottom) until its last heading is on screen; then
 *   until every part is rendered in the background, with the longest main-thread task seen from the open on;
 * - a LaTeX cache hit: the core's compile call for a document whose inputs did not change;
 * - the chat's first paint: bytes of the entry JS and CSS (Monaco and pdf.js must be separate lazy chunks).
 * Each open is timed in the page (performance.now() at the call, a MutationObserver at the result), 5 times (`--quick`: smaller files, twice);
 * the first open pays for loading the lazy chunk, and the row reports the median with the first.
 */
import { chromium, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../e2e/chromium';
import { createCore } from '../src/main/core/index';
import { LatexCompiler } from '../src/main/core/viewer/latex';
import { startWebServer } from '../src/main/web/server';
import { makePdf } from '../test/fixtures/viewer/make-pdf';
import { median, ms, type BenchOptions, type BenchRow } from './table';

// `--expose-gc`: the Markdown rows collect the last open's garbage first, so one open's 2 MB of dropped DOM is not
// counted as the next open's long task (a person does not reopen the same file five times in a few seconds).
const ARGS = [
  '--headless',
  '--js-flags=--expose-gc',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** The full run's inputs and opens; `--quick` opens smaller files fewer times (the same code paths). */
const FULL = { runs: 5, pdfPages: 100, codeLines: 50_000, markdownBytes: 2 * 1024 * 1024, latexHits: 20 };
const QUICK = { runs: 2, pdfPages: 10, codeLines: 5_000, markdownBytes: 128 * 1024, latexHits: 5 };

/** Opens `path` as a tool-path click does and resolves when `selector` (matched against the page) is there. */
async function timeOpen(page: Page, path: string, ready: string): Promise<number> {
  return page.evaluate(
    async ({ path, ready }) => {
      const started = performance.now();
      const found = new Promise<number>((resolve, reject) => {
        const check = () => {
          if (document.querySelector(ready)) {
            observer.disconnect();
            resolve(performance.now() - started);
          }
        };
        const observer = new MutationObserver(check);
        observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
        setTimeout(() => reject(new Error(`not ready: ${ready}`)), 30_000);
      });
      await window.skald!.viewer.open({ path });
      return found;
    },
    { path, ready },
  );
}

interface MarkdownOpen {
  firstScreen: number;
  jumpToEnd: number;
  allParts: number;
  /** Durations of the tasks over 50 ms (Chromium's `longtask` entries) from the open until every part is rendered. */
  longTasks: number[];
  parts: number;
}

/**
 * One open of a large Markdown file, timed in the page from the open request: its first screen, a jump to the
 * end (scrollTop to the bottom, as a drag of the scrollbar does) until the last heading is inside the viewport,
 * and every part rendered; long tasks (over 50 ms, Chromium's `longtask` entries) are recorded throughout.
 */
async function timeMarkdown(page: Page, path: string, lastHeading: string): Promise<MarkdownOpen> {
  return page.evaluate(
    async ({ path, lastHeading }) => {
      // Checked once a frame (when a person would see it), so the waiting itself adds no work to the page's tasks.
      const waitFor = (test: () => boolean, what: string) =>
        new Promise<void>((resolve, reject) => {
          const give = setTimeout(() => reject(new Error(`not ready: ${what}`)), 60_000);
          const check = () => {
            if (!test()) return void requestAnimationFrame(check);
            clearTimeout(give);
            resolve();
          };
          check();
        });
      const longTasks: number[] = [];
      const tasks = new PerformanceObserver((list) => list.getEntries().forEach((e) => longTasks.push(e.duration)));
      tasks.observe({ type: 'longtask' });
      const started = performance.now();
      await window.skald!.viewer.open({ path });
      const md = () => document.querySelector<HTMLElement>('[data-testid="viewer-markdown"]');
      await waitFor(() => md()?.dataset.firstScreen === 'ready', 'first screen');
      const firstScreen = performance.now() - started;
      const scroller = md()!.parentElement!;
      const jumped = performance.now();
      scroller.scrollTop = scroller.scrollHeight;
      const inView = () => {
        const h = md()!.lastElementChild!.querySelector('h1');
        if (h?.textContent !== lastHeading) {
          scroller.scrollTop = scroller.scrollHeight; // the estimates grew into real heights: still the end
          return false;
        }
        const box = h.getBoundingClientRect();
        const view = scroller.getBoundingClientRect();
        return box.top >= view.top && box.bottom <= view.bottom;
      };
      await waitFor(inView, 'last heading on screen');
      const jumpToEnd = performance.now() - jumped;
      await waitFor(() => md()?.dataset.rendered === 'all', 'every part');
      const allParts = performance.now() - started;
      await new Promise((r) => setTimeout(r, 100)); // the last long-task entries arrive after the task
      tasks.disconnect();
      return { firstScreen, jumpToEnd, allParts, longTasks, parts: md()!.children.length };
    },
    { path, lastHeading },
  );
}

async function closeAllTabs(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Close viewer' }).click();
  await page.getByTestId('viewer').waitFor({ state: 'detached' });
}

async function series(
  page: Page,
  path: string,
  ready: string,
  runs: number,
): Promise<{ first: number; median: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    times.push(await timeOpen(page, path, ready));
    await closeAllTabs(page);
  }
  return { first: times[0]!, median: median(times) };
}

function entryBytes(rendererDir: string): { entry: number; lazy: Record<string, number> } {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  const entry = refs.reduce((n, rel) => n + statSync(join(rendererDir, rel)).size, 0);
  const lazy: Record<string, number> = { monaco: 0, pdfjs: 0 };
  for (const name of readdirSync(join(rendererDir, 'assets'))) {
    const size = statSync(join(rendererDir, 'assets', name)).size;
    if (/^(monaco-setup|editor\.worker)/.test(name)) lazy.monaco! += size;
    if (/^(pdf-setup|pdf_viewer|pdf\.worker)/.test(name)) lazy.pdfjs! += size;
  }
  return { entry, lazy };
}

export async function run(options: BenchOptions): Promise<BenchRow[]> {
  const size = options.quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), 'skald-bench-viewer-'));
  const ws = join(dir, 'ws');
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, 'hundred.pdf'), makePdf(size.pdfPages));
  writeFileSync(
    join(ws, 'big.ts'),
    Array.from({ length: size.codeLines }, (_, i) => `export const value${i}: number = ${i}; // line ${i + 1}`).join(
      '\n',
    ),
  );
  const md: string[] = [];
  for (let i = 0; md.join('\n').length < size.markdownBytes; i++) {
    md.push(
      `## Section ${i}`,
      '',
      `Some **bold** text, a [link](https://example.com/${i}), \`code\` and a list:`,
      '',
      '- one',
      '- two',
      '',
      '| a | b |',
      '|---|---|',
      `| ${i} | ${i * 2} |`,
      '',
    );
  }
  md.push('# The last heading');
  writeFileSync(join(ws, 'big.md'), md.join('\n'));
  writeFileSync(
    join(ws, 'paper.tex'),
    '\\documentclass{article}\n\\begin{document}\nBench \\input{part}\n\\end{document}\n',
  );
  writeFileSync(join(ws, 'part.tex'), 'input.');

  const core = await createCore({ dataDir: join(dir, 'data'), workspaceDir: ws, shape: 'web', version: 'bench' });
  const rendererDir = join(process.cwd(), 'out/renderer');
  const server = await startWebServer({ core, rendererDir, log: () => {} });
  const browser = await chromium.launch({ executablePath: findChromium(), args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.goto(server.url);
    await page.getByTestId('session-item').first().waitFor();

    // pdf.js marks a page `data-loaded` once its canvas is drawn.
    const pdf = await series(page, 'hundred.pdf', '.page[data-page-number="1"][data-loaded="true"] canvas', size.runs);
    // Highlighted: a token span of a colour class other than the default one.
    const code = await series(
      page,
      'big.ts',
      '[data-testid="viewer-code"] .view-lines span[class*="mtk"]:not(.mtk1)',
      size.runs,
    );
    const markdownRuns: MarkdownOpen[] = [];
    for (let i = 0; i < size.runs; i++) {
      await page.evaluate(() => (window as unknown as { gc?: () => void }).gc?.());
      markdownRuns.push(await timeMarkdown(page, 'big.md', 'The last heading'));
      await closeAllTabs(page);
    }
    const mdSeries = (pick: (m: MarkdownOpen) => number) => ({
      first: pick(markdownRuns[0]!),
      median: median(markdownRuns.map(pick)),
    });
    // Per open, its longest task; the row takes the median open, so one open descheduled by a loaded machine
    // does not decide it, and reports the worst and how many long tasks the opens had.
    const longestPerOpen = markdownRuns.map((m) => Math.max(0, ...m.longTasks));
    const longestTask = median(longestPerOpen);
    const longCounts = markdownRuns.map((m) => m.longTasks.length).join(', ');

    const latex = new LatexCompiler(join(dir, 'latex-cache'));
    const warm = await latex.compile(join(ws, 'paper.tex'));
    const hits: number[] = [];
    for (let i = 0; i < size.latexHits; i++) {
      const started = performance.now();
      const hit = await latex.compile(join(ws, 'paper.tex'));
      hits.push(performance.now() - started);
      if (hit.status !== 'ok' || !hit.isCached) throw new Error('expected a LaTeX cache hit');
    }
    const hit = median(hits);

    const bundle = entryBytes(rendererDir);
    const mdSize =
      size.markdownBytes >= 1024 * 1024
        ? `${size.markdownBytes / (1024 * 1024)} MB`
        : `${size.markdownBytes / 1024} KB`;
    const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
    const row = (name: string, s: { first: number; median: number }, bound: number): BenchRow => ({
      name: `${name} (median of ${size.runs}; first ${ms(s.first)})`,
      ours: ms(s.median),
      peer: `< ${bound} ms`,
      target: `< ${bound} ms`,
      pass: s.median < bound,
    });
    return [
      row(`viewer: ${size.pdfPages}-page PDF, first page painted after the open`, pdf, 500),
      row(`viewer: ${size.codeLines.toLocaleString('en')}-line file highlighted after the open`, code, 500),
      row(
        `viewer: ${mdSize} Markdown, first screen rendered after the open (every part meeting the viewport)`,
        mdSeries((m) => m.firstScreen),
        300,
      ),
      row(
        `viewer: ${mdSize} Markdown, jump to the end (scrolled to the bottom) until the last heading is on screen`,
        mdSeries((m) => m.jumpToEnd),
        300,
      ),
      {
        name: `viewer: ${mdSize} Markdown, longest main-thread task from the open until all ${markdownRuns[0]!.parts} parts are rendered in the background (median of ${size.runs} opens; worst ${ms(Math.max(...longestPerOpen))}; tasks over 50 ms per open: ${longCounts}; all parts after ${ms(mdSeries((m) => m.allParts).median)} median)`,
        ours: longestTask === 0 ? 'none over 50 ms' : ms(longestTask),
        peer: '< 50 ms (no long task)',
        target: 'no long task',
        pass: longestTask < 50,
      },
      {
        name: `viewer: LaTeX cache hit (core compile call, median of ${size.latexHits}; first build ${warm.status === 'ok' ? ms(warm.ms) : warm.status})`,
        ours: ms(hit),
        peer: '< 50 ms',
        target: '< 50 ms',
        pass: hit < 50,
      },
      {
        name: `viewer: chat first paint JS+CSS (Monaco ${kb(bundle.lazy.monaco!)} and pdf.js ${kb(bundle.lazy.pdfjs!)} lazy, not in it)`,
        ours: kb(bundle.entry),
        peer: 'no Monaco/pdf.js in the entry',
        target: 'lazy chunks separate',
        pass:
          bundle.lazy.monaco! > 0 &&
          bundle.lazy.pdfjs! > 0 &&
          !readFileSync(join(rendererDir, 'index.html'), 'utf8').match(/monaco|pdf/),
      },
    ];
  } finally {
    await browser.close();
    await server.close();
    await core.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Code-block highlighting with shiki, bundled with the app and loaded lazily (docs/chat-ui.md "Code highlighting"):
 * the highlighter runs in a worker (lib/highlight.worker.ts) started on the first code block, so neither the
 * first paint nor a streaming reply ever waits for it; grammars are separate chunks of the app's own files, never
 * from a CDN. Tokens come back as text and two colours and become spans with `textContent` and CSS variables, so no
 * HTML string from the highlighter is ever parsed. The light/dark colours follow the page's `color-scheme` (CSS
 * `light-dark()`). Limits: languages outside the worker's list stay plain text; a block over 100,000 characters
 * is not highlighted.
 * Speed: a colour pair becomes one class (a rule in a constructed style sheet) instead of two inline properties per
 * token, and a block once painted is kept (a bounded cache of its tokens as compact data, keyed by language and
 * text), so a row scrolled back into view is painted before its first frame, with no worker round trip.
 */
import type { HighlightAnswer, HighlightedLine, HighlightRequest } from './highlight.worker';
import { RecentMap } from '../../../shared/recent-map';
import { encodeTokens, LINE_BREAK, NO_CLASS, tokenRuns, type PaintedBlock } from './painted-block';

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, (lines: HighlightedLine[] | null) => void>();

function highlighter(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<HighlightAnswer>) => {
      waiting.get(event.data.id)?.(event.data.lines);
      waiting.delete(event.data.id);
    };
  }
  return worker;
}

/** Tokens of `code` with a light and a dark colour each; null when the language is not bundled. */
export function highlightTokens(code: string, lang: string): Promise<HighlightedLine[] | null> {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    highlighter().postMessage({ id, code, lang } satisfies HighlightRequest);
  });
}

/** One class per (light, dark) colour pair, `hl-<n>`, its rule in a style sheet the page adopts (no inline style). */
const colourClasses = new Map<string, number>();
let sheet: CSSStyleSheet | null = null;
const HEX = /^#[0-9a-f]{3,8}$/i;

function colourClass(doc: Document, light: string, dark: string): number {
  const key = `${light} ${dark}`;
  let n = colourClasses.get(key);
  if (n === undefined) {
    n = colourClasses.size;
    if (!sheet) {
      sheet = new (doc.defaultView ?? window).CSSStyleSheet();
      doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
    }
    // Theme colours are hex; anything else is left to the default colour rather than written into a rule.
    const decl = [HEX.test(light) ? `--hl-light: ${light};` : '', HEX.test(dark) ? `--hl-dark: ${dark};` : ''].join(
      ' ',
    );
    sheet.insertRule(`.hl-${n} { ${decl} }`, sheet.cssRules.length);
    colourClasses.set(key, n);
  }
  return n;
}

/** Replaces the text of a `<code>` element with coloured spans (text nodes only; no HTML is parsed). */
export function paintTokens(code: HTMLElement, lines: HighlightedLine[]): PaintedBlock {
  const doc = code.ownerDocument;
  const block = encodeTokens(lines, (light, dark) => colourClass(doc, light, dark));
  paintBlock(code, block);
  return block;
}

/** Paints a block's tokens into `code`: a span per token (its class, if any), a text node per line break. */
function paintBlock(code: HTMLElement, block: PaintedBlock): void {
  const doc = code.ownerDocument;
  const out = doc.createDocumentFragment();
  for (const [text, cls] of tokenRuns(block)) {
    if (cls === LINE_BREAK) {
      out.appendChild(doc.createTextNode(text));
      continue;
    }
    const span = doc.createElement('span');
    span.textContent = text;
    if (cls !== NO_CLASS) span.className = `hl-${cls}`;
    out.appendChild(span);
  }
  code.replaceChildren(out);
  code.classList.add('highlighted');
}

const PAINTED_ENTRIES = 400;
/**
 * Painted blocks by language and text, as data (encodeTokens): a row scrolled back into view is painted from it
 * before its first frame. Not as DOM: 400 blocks of a few hundred spans each were about 170,000 live nodes that
 * every full garbage collection of the page had to trace (the long tasks of a long scroll: docs/chat-ui.md).
 */
const painted = new RecentMap<string, PaintedBlock>(PAINTED_ENTRIES);

function paintFromCache(code: HTMLElement, key: string): boolean {
  const block = painted.get(key);
  if (!block) return false;
  paintBlock(code, block);
  return true;
}

function keep(key: string, block: PaintedBlock): void {
  painted.set(key, block);
}

/**
 * Highlights every not-yet-highlighted fenced block under `root` whose language is bundled. Blocks painted before
 * are painted at once, before this returns its promise; the others when the worker answers.
 */
export async function highlightWithin(root: HTMLElement): Promise<void> {
  const misses: { code: HTMLElement; lang: string; text: string; key: string }[] = [];
  for (const code of root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]:not(.highlighted)')) {
    const lang = /language-([\w+#.-]+)/.exec(code.className)?.[1] ?? '';
    const text = code.textContent ?? '';
    const key = `${lang}\n${text}`;
    if (!paintFromCache(code, key)) misses.push({ code, lang, text, key });
  }
  for (const { code, lang, text, key } of misses) {
    const lines = await highlightTokens(text, lang).catch(() => null);
    // The element may have been replaced or re-rendered meanwhile; paint only what still shows the same text.
    if (lines && code.isConnected && code.textContent === text) {
      keep(key, paintTokens(code, lines));
    }
  }
}

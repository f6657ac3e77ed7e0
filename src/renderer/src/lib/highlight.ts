/**
 * Code-block highlighting with shiki, bundled with the app and loaded lazily (docs/chat-ui.md "Code highlighting"):
 * the highlighter runs in a worker (lib/highlight.worker.ts) started on the first code block, so neither the
 * first paint nor a streaming reply ever waits for it; grammars are separate chunks of the app's own files, never
 * from a CDN. Tokens come back as text and two colours and become spans with `textContent` and CSS variables, so no
 * HTML string from the highlighter is ever parsed. The light/dark colours follow the page's `color-scheme` (CSS
 * `light-dark()`). Limits: languages outside the worker's list stay plain text; a block over 100,000 characters
 * is not highlighted.
 * Speed: a colour pair becomes one class (a rule in a constructed style sheet) instead of two inline properties per
 * token, and a block once painted is kept (a bounded cache of its spans, keyed by language and text), so a row
 * scrolled back into view is painted from a clone before its first frame, with no worker round trip.
 */
import type { HighlightAnswer, HighlightedLine, HighlightRequest } from './highlight.worker';

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

/** One class per (light, dark) colour pair, its rule in a style sheet the page adopts (no inline style). */
const colourClasses = new Map<string, string>();
let sheet: CSSStyleSheet | null = null;
const HEX = /^#[0-9a-f]{3,8}$/i;

function colourClass(doc: Document, light: string, dark: string): string {
  const key = `${light} ${dark}`;
  let name = colourClasses.get(key);
  if (!name) {
    name = `hl-${colourClasses.size}`;
    if (!sheet) {
      sheet = new (doc.defaultView ?? window).CSSStyleSheet();
      doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
    }
    // Theme colours are hex; anything else is left to the default colour rather than written into a rule.
    const decl = [HEX.test(light) ? `--hl-light: ${light};` : '', HEX.test(dark) ? `--hl-dark: ${dark};` : ''].join(' ');
    sheet.insertRule(`.${name} { ${decl} }`, sheet.cssRules.length);
    colourClasses.set(key, name);
  }
  return name;
}

/** Replaces the text of a `<code>` element with coloured spans (text nodes only; no HTML is parsed). */
export function paintTokens(code: HTMLElement, lines: HighlightedLine[]): void {
  const doc = code.ownerDocument;
  const out = doc.createDocumentFragment();
  lines.forEach((line, i) => {
    for (const [content, light, dark] of line) {
      const span = doc.createElement('span');
      span.textContent = content;
      if (light || dark) span.className = colourClass(doc, light, dark);
      out.appendChild(span);
    }
    if (i < lines.length - 1) out.appendChild(doc.createTextNode('\n'));
  });
  code.replaceChildren(out);
  code.classList.add('highlighted');
}

const PAINTED_ENTRIES = 400;
/** Painted blocks by language and text: the spans of a `<code>` once highlighted, cloned for the next one. */
const painted = new Map<string, DocumentFragment>();

function paintFromCache(code: HTMLElement, key: string): boolean {
  const spans = painted.get(key);
  if (!spans) return false;
  painted.delete(key);
  painted.set(key, spans);
  code.replaceChildren(spans.cloneNode(true));
  code.classList.add('highlighted');
  return true;
}

function keep(code: HTMLElement, key: string): void {
  const spans = code.ownerDocument.createDocumentFragment();
  for (const node of code.childNodes) spans.appendChild(node.cloneNode(true));
  painted.set(key, spans);
  if (painted.size > PAINTED_ENTRIES) painted.delete(painted.keys().next().value!);
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
      paintTokens(code, lines);
      keep(code, key);
    }
  }
}

/**
 * Code-block highlighting with shiki, bundled with the app and loaded lazily (docs/chat-ui.md "Code highlighting"):
 * the highlighter runs in a worker (lib/highlight.worker.ts) started on the first code block, so neither the
 * first paint nor a streaming reply ever waits for it; grammars are separate chunks of the app's own files, never
 * from a CDN. Tokens come back as text and two colours and become spans with `textContent` and CSS variables, so no
 * HTML string from the highlighter is ever parsed. The light/dark colours follow the page's `color-scheme` (CSS
 * `light-dark()`). Limits: languages outside the worker's list stay plain text; a block over 100,000 characters
 * is not highlighted.
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

/** Replaces the text of a `<code>` element with coloured spans (text nodes only; no HTML is parsed). */
export function paintTokens(code: HTMLElement, lines: HighlightedLine[]): void {
  const doc = code.ownerDocument;
  const out = doc.createDocumentFragment();
  lines.forEach((line, i) => {
    for (const [content, light, dark] of line) {
      const span = doc.createElement('span');
      span.textContent = content;
      if (light) span.style.setProperty('--hl-light', light);
      if (dark) span.style.setProperty('--hl-dark', dark);
      out.appendChild(span);
    }
    if (i < lines.length - 1) out.appendChild(doc.createTextNode('\n'));
  });
  code.replaceChildren(out);
  code.classList.add('highlighted');
}

/** Highlights every not-yet-highlighted fenced block under `root` whose language is bundled. */
export async function highlightWithin(root: HTMLElement): Promise<void> {
  const blocks = [...root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]:not(.highlighted)')];
  for (const code of blocks) {
    const lang = /language-([\w+#.-]+)/.exec(code.className)?.[1] ?? '';
    const text = code.textContent ?? '';
    const lines = await highlightTokens(text, lang).catch(() => null);
    // The element may have been replaced or re-rendered meanwhile; paint only what still shows the same text.
    if (lines && code.isConnected && code.textContent === text) paintTokens(code, lines);
  }
}

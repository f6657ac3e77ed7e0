/**
 * Markdown for chat messages: marked → DOMPurify → a post-pass, safe on its own (docs/chat-ui.md "Markdown"). The page's
 * CSP is a second wall, not the first: the desktop window, the web tab and the viewer each have their own, so this
 * module must stop every remote fetch by itself.
 * - Only the HTML profile survives (no SVG, no MathML: `<svg><image href>`, `<use>`, `feImage` go).
 * - Every element that loads a URL on render is removed whole (media, embeds, frames, forms and their inputs,
 *   `<link>`, `<meta>`, `<base>`, `<style>`), and so is every attribute that does (`srcset`, `background`,
 *   `poster`, `ping`, `lowsrc`, `dynsrc`, `style` with its `url()`, …), whatever element carries it.
 * - Images: a `data:` raster image is shown; any other becomes a button that loads it only when clicked.
 * - Links: http(s) open outside the app (`_blank`, `noopener noreferrer`); `mailto:` and `#` stay; any other
 *   scheme loses its href.
 * Limits: `data:` images are decoded by the browser (raster only; no SVG, which could carry more).
 * Text nested or shaped so that the parser would overflow the stack or take seconds is shown as plain text instead,
 * with the reason (markdown-hazards.ts), as text nodes that are never parsed as HTML; so is text the parser fails on.
 * Speed (a long session renders a row per message as it scrolls into view): the sanitizer is our own DOMPurify
 * instance with its configuration parsed once, and the rendered HTML of recent texts (or their plain-text chunks) is kept (a bounded cache keyed
 * by the text: the output depends on nothing else), so a row scrolled back into view costs nothing; the list renders
 * the rows just outside the screen into it while the page is idle (`prerenderMarkdown`).
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { RecentMap } from '../../../shared/recent-map';
import { markdownHazard } from './markdown-hazards';

/** Elements that fetch on render or submit somewhere: never kept, not even their text fallbacks. */
const FORBID_TAGS = [
  'style',
  'link',
  'meta',
  'base',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'video',
  'audio',
  'source',
  'track',
  'picture',
  'bgsound',
  'image',
  'svg',
  'math',
  'template',
  'noscript',
  'script',
];
/** Attributes that fetch on render (or on a click the person did not mean as a fetch, like `ping`). */
const FORBID_ATTR = [
  'style',
  'srcset',
  'imagesrcset',
  'background',
  'poster',
  'ping',
  'lowsrc',
  'dynsrc',
  'longdesc',
  'formaction',
  'action',
  'data',
  'codebase',
  'manifest',
  'xlink:href',
  'attributionsrc',
  'integrity',
  'sizes',
];
const SAFE_DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif|bmp);base64,[a-z0-9+/=\s]+$/i;
const HTTP = /^https?:\/\//i;

/** The attribute a placeholder keeps its image URL in; stripped from the model's own HTML (data attributes off). */
export const REMOTE_IMAGE_ATTR = 'data-remote-src';

/** Set by the post-pass only (the model's data attributes are stripped): a relative file reference to open. */
export const VIEWER_PATH_ATTR = 'data-viewer-path';

/** A reference with no scheme and no host (`notes/a.md`, `../b.png`): a file next to the document. */
export function isRelativeRef(ref: string): boolean {
  return ref !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(ref) && !ref.startsWith('//') && !ref.startsWith('\\\\');
}

function imagePlaceholder(img: Element): Element | null {
  const src = (img.getAttribute('src') ?? '').trim();
  if (SAFE_DATA_IMAGE.test(src)) {
    for (const name of [...img.getAttributeNames()])
      if (name !== 'src' && name !== 'alt' && name !== 'title' && name !== 'width' && name !== 'height')
        img.removeAttribute(name);
    return null;
  }
  const alt = img.getAttribute('alt') || '';
  const placeholder = img.ownerDocument.createElement('span');
  placeholder.className = 'remote-image';
  if (HTTP.test(src)) {
    let host = src;
    try {
      host = new URL(src).host;
    } catch {
      /* keep the raw text */
    }
    placeholder.setAttribute(REMOTE_IMAGE_ATTR, src);
    placeholder.setAttribute('role', 'button');
    placeholder.setAttribute('tabindex', '0');
    placeholder.setAttribute('title', `Load ${src}`);
    placeholder.textContent = `Image${alt ? `: ${alt}` : ''} — click to load from ${host}`;
  } else {
    placeholder.textContent = `[image${alt ? `: ${alt}` : ''} not shown]`;
    // A local image next to the document: the viewer opens it on click (docs/viewer.md "Markdown").
    if (isRelativeRef(src)) placeholder.setAttribute(VIEWER_PATH_ATTR, src);
  }
  return placeholder;
}

function fixLink(a: Element): void {
  const href = (a.getAttribute('href') ?? '').trim();
  if (HTTP.test(href)) {
    a.setAttribute('target', '_blank');
    a.setAttribute('rel', 'noopener noreferrer');
  } else if (!href.startsWith('#') && !/^mailto:/i.test(href)) {
    // A relative link names a file: the viewer opens it (docs/viewer.md "Markdown"); it is never navigated.
    if (isRelativeRef(href)) a.setAttribute(VIEWER_PATH_ATTR, href);
    a.removeAttribute('href');
  }
}

let purifier: ReturnType<typeof DOMPurify> | null = null;

/** Our own instance (the shared default's configuration is left alone), configured once, on first use. */
function purify(): ReturnType<typeof DOMPurify> {
  if (!purifier) {
    purifier = DOMPurify(window);
    purifier.setConfig({
      USE_PROFILES: { html: true },
      FORBID_TAGS,
      FORBID_ATTR,
      ALLOW_DATA_ATTR: false,
      ALLOW_ARIA_ATTR: true,
      RETURN_DOM_FRAGMENT: true,
    });
  }
  return purifier;
}

/**
 * Sanitizes HTML from the model (or from Markdown of it) into nodes that fetch nothing on render. Inserting these
 * nodes as they are (the viewer does) also skips a serialize-and-parse round, which is both faster and immune to
 * HTML that parses differently the second time.
 */
export function sanitizeToFragment(html: string): DocumentFragment {
  // A `<frameset>` would make the parsed document body-less, and DOMPurify then returns nothing at all: drop the
  // frame tags first so the rest of the message still shows (they are forbidden anyway).
  const fragment = purify().sanitize(
    html.replace(/<\/?(frameset|frame)\b[^>]*>/gi, ''),
  ) as unknown as DocumentFragment | null;
  if (!fragment) return document.createDocumentFragment();
  // The post-pass runs on the sanitized fragment, so nothing it creates is model input.
  for (const img of [...fragment.querySelectorAll('img')]) {
    const replacement = imagePlaceholder(img);
    if (replacement) img.replaceWith(replacement);
  }
  for (const a of fragment.querySelectorAll('a')) fixLink(a);
  // Belt and braces: no attribute anywhere may name a remote URL except a link's href and our placeholder's.
  for (const el of fragment.querySelectorAll('*')) {
    for (const name of el.getAttributeNames()) {
      if (
        (el.tagName === 'A' && name === 'href') ||
        name === REMOTE_IMAGE_ATTR ||
        name === VIEWER_PATH_ATTR ||
        (el.tagName === 'IMG' && name === 'src')
      )
        continue;
      if (/(^|[\s"'(,])(https?:)?\/\//i.test(el.getAttribute(name) ?? '') && name !== 'title' && name !== 'alt')
        el.removeAttribute(name);
    }
  }
  return fragment;
}

/** Sanitizes HTML from the model (or from Markdown of it) into HTML that fetches nothing on render. */
export function sanitizeHtml(html: string): string {
  const box = document.createElement('div');
  box.appendChild(sanitizeToFragment(html));
  return box.innerHTML;
}

const CACHE_ENTRIES = 2_000;
/** Texts longer than this are rendered each time (a viewer document part), not kept; text shown plain is always kept. */
const CACHE_MAX_CHARS = 64 * 1024;

/**
 * Text the Markdown parser must not see (markdown-hazards.ts), to be shown as it is under the reason: its chunks
 * are slices of the text (no copy), in order, adding up to it.
 */
export interface PlainText {
  why: string;
  chunks: readonly string[];
}

/** A text rendered for the chat: sanitized HTML from Markdown, or text shown plain (`plainTextFragment`). */
export type RenderedMarkdown = { html: string; plain?: undefined } | { plain: PlainText; html?: undefined };

const rendered = new RecentMap<string, RenderedMarkdown>(CACHE_ENTRIES);

/** Lines per chunk of plain text: a chunk off screen is skipped by layout (styles.css `.md-plain-chunk`). */
const PLAIN_CHUNK_LINES = 100;
/**
 * Characters per chunk at most: a longer line is cut, so no chunk on screen is laid out whole past this. One line
 * of 100 KB in one chunk took 15 ms to shape (a cut shows as a line break, in text already shown as it is).
 */
const PLAIN_CHUNK_CHARS = 8 * 1024;

/** Where the chunk starting at `from` ends: after PLAIN_CHUNK_LINES lines or PLAIN_CHUNK_CHARS, never in a pair. */
function chunkEnd(text: string, from: number): number {
  const limit = Math.min(text.length, from + PLAIN_CHUNK_CHARS);
  let end = from;
  for (let lines = 0; lines < PLAIN_CHUNK_LINES; lines++) {
    const newline = text.indexOf('\n', end);
    if (newline === -1 || newline >= limit) {
      if (limit === text.length) return limit;
      // A line past the limit: cut it there (or at its last line end before), never between a surrogate pair.
      if (end > from) return end;
      const c = text.charCodeAt(limit - 1);
      return c >= 0xd800 && c <= 0xdbff ? limit - 1 : limit;
    }
    end = newline + 1;
  }
  return end;
}

function plainText(text: string, why: string): PlainText {
  const chunks: string[] = [];
  for (let from = 0; from < text.length; ) {
    const end = chunkEnd(text, from);
    chunks.push(text.slice(from, end));
    from = end;
  }
  return { why, chunks };
}

/**
 * Plain text as nodes: the reason, then the text in chunks. Built as text nodes, so nothing in it is ever parsed as
 * HTML and it needs no sanitizer; and nothing is escaped or parsed either (500 KB of `>` escaped and parsed as HTML
 * cost 110 ms, each time the row scrolled into view).
 */
export function plainTextFragment({ why, chunks }: PlainText): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const note = document.createElement('p');
  note.className = 'md-plain-note';
  note.textContent = `Shown as plain text: ${why}.`;
  const box = document.createElement('div');
  box.className = 'md-plain';
  for (const chunk of chunks) {
    const span = document.createElement('span');
    span.className = 'md-plain-chunk';
    span.textContent = chunk;
    box.append(span);
  }
  fragment.append(note, box);
  return fragment;
}

/** `text` as Markdown (HTML from marked, not yet sanitized), or as plain text when the parser must not see it. */
function parse(text: string): { html: string; plain?: undefined } | { plain: PlainText; html?: undefined } {
  const hazard = markdownHazard(text);
  if (hazard) return { plain: plainText(text, hazard) };
  try {
    return { html: marked.parse(text, { async: false, gfm: true, breaks: true }) };
  } catch (error) {
    // A shape the pass above does not know (the stack is shared with React's own): the message still shows.
    return {
      plain: plainText(
        text,
        `its Markdown could not be laid out (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      ),
    };
  }
}

/**
 * `text` rendered for a chat row: sanitized HTML, or plain text. `keep: false` for text that will not be asked for
 * again (a streaming reply's blocks and open tail).
 */
export function renderMarkdownOrPlain(text: string, { keep = true }: { keep?: boolean } = {}): RenderedMarkdown {
  const hit = keep ? rendered.get(text) : undefined;
  if (hit !== undefined) return hit;
  const parsed = parse(text);
  const view: RenderedMarkdown = parsed.plain ? parsed : { html: sanitizeHtml(parsed.html) };
  if (keep && (view.plain || text.length <= CACHE_MAX_CHARS)) rendered.set(text, view);
  return view;
}

/** `text` as sanitized HTML (plain text serialized by the browser, which escapes it). */
export function renderMarkdown(text: string, options?: { keep?: boolean }): string {
  const view = renderMarkdownOrPlain(text, options);
  if (!view.plain) return view.html;
  const box = document.createElement('div');
  box.append(plainTextFragment(view.plain));
  return box.innerHTML;
}

/**
 * Renders the texts not yet kept into the cache while `hasTime()` says so: rows about to scroll into view (MessageList,
 * in idle time), so the frame that mounts them only inserts their HTML. Returns the index of the first text not done.
 */
export function prerenderMarkdown(texts: readonly string[], from: number, hasTime: () => boolean): number {
  let i = from;
  for (; i < texts.length; i++) {
    const text = texts[i]!;
    if (text.length > CACHE_MAX_CHARS || rendered.has(text)) continue;
    if (!hasTime()) break;
    renderMarkdownOrPlain(text);
  }
  return i;
}

/** Markdown rendered into sanitized nodes, for a view that inserts them itself (the viewer's large documents). */
export function renderMarkdownFragment(text: string): DocumentFragment {
  const parsed = parse(text);
  return parsed.plain ? plainTextFragment(parsed.plain) : sanitizeToFragment(parsed.html);
}

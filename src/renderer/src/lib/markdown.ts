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
 * with the reason (markdown-hazards.ts); so is text the parser fails on.
 * Speed (a long session renders a row per message as it scrolls into view): the sanitizer is our own DOMPurify
 * instance with its configuration parsed once, and the rendered HTML of recent texts is kept (a bounded cache keyed
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
/** Texts longer than this are rendered each time (a viewer document part), not kept. */
const CACHE_MAX_CHARS = 64 * 1024;
const rendered = new RecentMap<string, string>(CACHE_ENTRIES);

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));

/** Lines per chunk of plain text: a chunk off screen is skipped by layout (styles.css `.md-plain-chunk`). */
const PLAIN_CHUNK_LINES = 100;

/**
 * Text the Markdown parser must not see (markdown-hazards.ts), shown as it is, with the reason. Built here from
 * escaped text and fixed tags only, so it needs no sanitizer (which cost tens of milliseconds on 500 KB); in chunks
 * of lines, so a long one is not laid out whole (a 500 KB text node was a 50 ms layout).
 */
function plainText(text: string, why: string): string {
  const lines = text.split('\n');
  const chunks: string[] = [];
  for (let i = 0; i < lines.length; i += PLAIN_CHUNK_LINES) {
    const chunk = lines.slice(i, i + PLAIN_CHUNK_LINES).join('\n') + (i + PLAIN_CHUNK_LINES < lines.length ? '\n' : '');
    chunks.push(`<span class="md-plain-chunk">${escapeHtml(chunk)}</span>`);
  }
  return `<p class="md-plain-note">Shown as plain text: ${escapeHtml(why)}.</p><div class="md-plain">${chunks.join('')}</div>`;
}

/** HTML for `text`: from marked (to be sanitized), or plain text built here (`isPlain`, needing none). */
function parse(text: string): { html: string; isPlain: boolean } {
  const hazard = markdownHazard(text);
  if (hazard) return { html: plainText(text, hazard), isPlain: true };
  try {
    return { html: marked.parse(text, { async: false, gfm: true, breaks: true }), isPlain: false };
  } catch (error) {
    // A shape the pass above does not know (the stack is shared with React's own): the message still shows.
    return {
      html: plainText(
        text,
        `its Markdown could not be laid out (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      ),
      isPlain: true,
    };
  }
}

/** `keep: false` for text that will not be asked for again (a streaming reply's blocks and open tail). */
export function renderMarkdown(text: string, { keep = true }: { keep?: boolean } = {}): string {
  const hit = keep ? rendered.get(text) : undefined;
  if (hit !== undefined) return hit;
  const parsed = parse(text);
  const html = parsed.isPlain ? parsed.html : sanitizeHtml(parsed.html);
  if (keep && text.length <= CACHE_MAX_CHARS) rendered.set(text, html);
  return html;
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
    renderMarkdown(text);
  }
  return i;
}

/** Markdown rendered into sanitized nodes, for a view that inserts them itself (the viewer's large documents). */
export function renderMarkdownFragment(text: string): DocumentFragment {
  const parsed = parse(text);
  if (!parsed.isPlain) return sanitizeToFragment(parsed.html);
  const template = document.createElement('template');
  template.innerHTML = parsed.html;
  return template.content;
}

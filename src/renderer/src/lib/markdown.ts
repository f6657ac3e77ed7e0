/**
 * Markdown for chat messages: marked → DOMPurify (V5). Remote images are never fetched on render (P1: a
 * markdown image cannot exfiltrate); they become a link the person may click. http(s) links open outside the app
 * (`_blank`, `noopener noreferrer`); script and file links are dropped by the sanitizer.
 */
import DOMPurify from 'dompurify';
import { marked } from 'marked';

let hooked = false;
function installHooks(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'IMG') {
      const src = node.getAttribute('src') ?? '';
      if (!src.startsWith('data:image/')) {
        const link = document.createElement('a');
        link.textContent = `[image: ${node.getAttribute('alt') || src}]`;
        if (/^https?:/i.test(src)) link.setAttribute('href', src);
        link.setAttribute('title', 'Remote image not loaded');
        node.replaceWith(link);
        return;
      }
    }
    if (node.tagName === 'A') {
      const href = node.getAttribute('href') ?? '';
      if (/^https?:/i.test(href)) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer');
      } else if (!href.startsWith('#') && !/^mailto:/i.test(href)) {
        node.removeAttribute('href');
      }
    }
  });
}

export function renderMarkdown(text: string): string {
  installHooks();
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'iframe', 'form', 'object', 'embed', 'link', 'meta', 'base'], FORBID_ATTR: ['style'] });
}

/**
 * Sanitized Markdown (lib/markdown.ts): the only place the chat sets inner HTML. `Markdown` renders a finished
 * text; `StreamingMarkdown` renders a reply while it streams, re-rendering only the open tail (lib/markdown-stream;
 * its sanitized nodes go in as they are, with no serialize-and-parse round per frame; an open code block's text is
 * appended to one text node), its completed blocks in groups that are never touched again. Both highlight fenced
 * code (lib/highlight, in a worker; a block seen before is painted from its cache before the first paint) and load a
 * remote image only when clicked.
 */
import { memo, useLayoutEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { highlightWithin } from '../lib/highlight';
import { REMOTE_IMAGE_ATTR, renderMarkdown, renderMarkdownFragment } from '../lib/markdown';
import { MarkdownStream } from '../lib/markdown-stream';
import type { TextDelta } from '../stores/chat-reducer';

/** Turns a clicked placeholder into the image it stands for: the person asked for this one fetch. */
export function loadClickedImage(event: MouseEvent<HTMLElement> | KeyboardEvent<HTMLElement>): void {
  if ('key' in event && event.key !== 'Enter' && event.key !== ' ') return;
  const placeholder = (event.target as HTMLElement).closest<HTMLElement>(`[${REMOTE_IMAGE_ATTR}]`);
  const src = placeholder?.getAttribute(REMOTE_IMAGE_ATTR) ?? '';
  if (!placeholder || !/^https?:\/\//i.test(src)) return;
  event.preventDefault();
  const img = document.createElement('img');
  img.src = src;
  img.alt = placeholder.textContent ?? '';
  img.referrerPolicy = 'no-referrer';
  // The page's CSP may still refuse remote images: then offer it in the browser instead of a broken icon.
  img.onerror = () => {
    const link = document.createElement('a');
    link.href = src;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.textContent = `Open the image in your browser (${new URL(src).host})`;
    img.replaceWith(link);
  };
  placeholder.replaceWith(img);
}

/** One block of trusted (already sanitized) HTML; keeps its DOM (and its highlighting) while the string is equal. */
const Html = memo(function Html({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // Before paint: a block highlighted before (a row scrolled back into view) shows its colours in its first frame.
  useLayoutEffect(() => {
    if (ref.current && html.includes('<pre')) void highlightWithin(ref.current);
  }, [html]);
  return <div className="md-block" ref={ref} dangerouslySetInnerHTML={{ __html: html }} />;
});

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const html = useMemo(() => renderMarkdown(text), [text]);
  return (
    <div className="markdown" onClick={loadClickedImage} onKeyDown={loadClickedImage}>
      <Html html={html} />
    </div>
  );
});

/**
 * Completed blocks of a streaming reply; a full group's array never changes, so it is skipped whole. Every group has
 * the same class from its first block: a class changing when a group fills made the browser restyle and lay out its
 * thousand-odd elements again in one frame (docs/chat-ui.md "Streaming Markdown").
 */
const BlockGroup = memo(function BlockGroup({ blocks }: { blocks: readonly string[] }) {
  return (
    <div className="md-group">
      {blocks.map((html, i) => (
        <Html key={i} html={html} />
      ))}
    </div>
  );
});

/** A streaming reply: `deltas` is its text as deltas, the newest first (chat-reducer `Streaming`). */
export function StreamingMarkdown({ deltas }: { deltas: TextDelta | null }) {
  const stream = useRef<MarkdownStream | null>(null);
  stream.current ??= new MarkdownStream();
  const { groups, tail, code } = useMemo(() => stream.current!.update(deltas), [deltas]);
  const tailRef = useRef<HTMLDivElement>(null);
  const codeRef = useRef<HTMLDivElement>(null);
  const shownCode = useRef<{ id: number; text: Text } | null>(null);
  // The open tail's nodes, sanitized, go in as they are (React leaves the element's children alone: it renders none).
  useLayoutEffect(() => {
    tailRef.current?.replaceChildren(renderMarkdownFragment(tail));
  }, [tail]);
  // An open code block: its text is appended to one text node (plain text: nothing to parse or sanitize).
  useLayoutEffect(() => {
    const box = codeRef.current;
    if (!box) return;
    if (!code) {
      if (shownCode.current) box.replaceChildren();
      shownCode.current = null;
      return;
    }
    const shown = shownCode.current;
    if (shown?.id === code.id && code.body.length >= shown.text.length) {
      if (code.body.length > shown.text.length) shown.text.appendData(code.body.slice(shown.text.length));
      return;
    }
    shownCode.current = { id: code.id, text: openCodeBlock(box, code.lang, code.body) };
  }, [code]);
  return (
    <div className="markdown" onClick={loadClickedImage} onKeyDown={loadClickedImage} data-testid="streaming-markdown">
      {groups.map((blocks, i) => (
        <BlockGroup key={i} blocks={blocks} />
      ))}
      <div className="md-block md-tail" ref={tailRef} />
      <div className="md-block md-tail" ref={codeRef} />
    </div>
  );
}

/** `<pre><code class="language-x">` as Markdown renders a code block, holding `body`; returns its text node. */
function openCodeBlock(box: HTMLElement, lang: string, body: string): Text {
  const pre = document.createElement('pre');
  const codeElement = pre.appendChild(document.createElement('code'));
  if (/^[\w+#.-]+$/.test(lang)) codeElement.className = `language-${lang}`;
  const text = codeElement.appendChild(document.createTextNode(body));
  box.replaceChildren(pre);
  return text;
}

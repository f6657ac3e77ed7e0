/**
 * Sanitized Markdown (lib/markdown.ts): the only place the chat sets inner HTML. `Markdown` renders a finished
 * text; `StreamingMarkdown` renders a reply while it streams, re-rendering only the open tail (lib/markdown-stream;
 * its sanitized nodes go in as they are, with no serialize-and-parse round per frame; an open code block's text is
 * appended as plain text, in chunks of lines), its completed blocks in groups that are never touched again. Both highlight fenced
 * code (lib/highlight, in a worker; a block seen before is painted from its cache before the first paint) and load a
 * remote image only when clicked.
 */
import { memo, useLayoutEffect, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react';
import { copyText } from '../lib/copy-text';
import { highlightWithin } from '../lib/highlight';
import {
  renderMarkdownOrPlain,
  plainTextFragment,
  REMOTE_IMAGE_ATTR,
  renderMarkdownFragment,
  type PlainText,
} from '../lib/markdown';
import { MarkdownStream } from '../lib/markdown-stream';
import { COPIED_MS } from './CopyButton';
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

const CODE_COPY_CLASS = 'code-copy';

/** A "Copy" button in each code block of a finished message (ours, added after sanitizing; never from the text). */
function addCodeCopyButtons(root: HTMLElement): void {
  for (const pre of root.querySelectorAll('pre')) {
    if (pre.querySelector(`:scope > .${CODE_COPY_CLASS}`) || !pre.querySelector('code')) continue;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `ghost small ${CODE_COPY_CLASS}`;
    button.textContent = 'Copy';
    button.setAttribute('aria-label', 'Copy the code');
    pre.appendChild(button);
  }
}

/** A click on a code block's "Copy": its code's text goes to the clipboard, and the button says so for a moment. */
function copyClickedCode(event: MouseEvent<HTMLElement>): boolean {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>(`.${CODE_COPY_CLASS}`);
  const code = button?.parentElement?.querySelector('code');
  if (!button || !code) return false;
  event.preventDefault();
  void copyText(code.textContent ?? '').then((ok) => {
    button.textContent = ok ? 'Copied' : 'Could not copy';
    setTimeout(() => (button.textContent = 'Copy'), COPIED_MS);
  });
  return true;
}

/** One block of trusted (already sanitized) HTML; keeps its DOM (and its highlighting) while the string is equal. */
const Html = memo(function Html({ html }: { html: string }) {
  const ref = useRef<HTMLDivElement>(null);
  // Before paint: a block highlighted before (a row scrolled back into view) shows its colours in its first frame.
  useLayoutEffect(() => {
    if (ref.current && html.includes('<pre')) {
      addCodeCopyButtons(ref.current);
      void highlightWithin(ref.current);
    }
  }, [html]);
  return <div className="md-block" ref={ref} dangerouslySetInnerHTML={{ __html: html }} />;
});

/** Text shown as it is (lib/markdown.ts `plainTextFragment`): its nodes go in as built, text nodes only. */
const Plain = memo(function Plain({ plain }: { plain: PlainText }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.replaceChildren(plainTextFragment(plain));
  }, [plain]);
  return <div className="md-block" ref={ref} />;
});

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const view = useMemo(() => renderMarkdownOrPlain(text), [text]);
  return (
    <div className="markdown" onClick={(e) => copyClickedCode(e) || loadClickedImage(e)} onKeyDown={loadClickedImage}>
      {view.plain ? <Plain plain={view.plain} /> : <Html html={view.html} />}
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
  const shownCode = useRef<ShownCode | null>(null);
  // The open tail's nodes, sanitized, go in as they are (React leaves the element's children alone: it renders none).
  useLayoutEffect(() => {
    tailRef.current?.replaceChildren(renderMarkdownFragment(tail));
  }, [tail]);
  // An open code block: its new text is appended as plain text (nothing to parse or sanitize), in chunks of lines.
  useLayoutEffect(() => {
    const box = codeRef.current;
    if (!box) return;
    if (!code) {
      if (shownCode.current) box.replaceChildren();
      shownCode.current = null;
      return;
    }
    let shown = shownCode.current;
    if (shown?.id !== code.id || code.body.length < shown.length)
      shown = shownCode.current = openCodeBlock(box, code.id, code.lang);
    if (code.body.length > shown.length) appendCode(shown, code.body.slice(shown.length));
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

/**
 * Lines per chunk of an open code block. The browser lays out and paints a text node whole: with the block as one
 * node, each frame of a 400 KB block cost hundreds of milliseconds, growing with it. Chunks that are full never
 * change again, and off screen they are skipped (`content-visibility`, styles.css `.code-chunk`).
 */
const CODE_CHUNK_LINES = 100;

interface ShownCode {
  id: number;
  code: HTMLElement;
  /** The last chunk's text node, its lines so far, and the length of all the text shown. */
  text: Text;
  lines: number;
  length: number;
}

/** An empty `<pre><code class="language-x">`, as Markdown renders a code block, ready for `appendCode`. */
function openCodeBlock(box: HTMLElement, id: number, lang: string): ShownCode {
  const pre = document.createElement('pre');
  const code = pre.appendChild(document.createElement('code'));
  if (/^[\w+#.-]+$/.test(lang)) code.className = `language-${lang}`;
  box.replaceChildren(pre);
  return { id, code, text: newChunk(code), lines: 0, length: 0 };
}

function newChunk(code: HTMLElement): Text {
  const chunk = code.appendChild(document.createElement('span'));
  chunk.className = 'code-chunk';
  return chunk.appendChild(document.createTextNode(''));
}

/** Appends `text` to the open block, starting a new chunk after each CODE_CHUNK_LINES lines. */
function appendCode(shown: ShownCode, text: string): void {
  let from = 0;
  while (from < text.length) {
    if (shown.lines >= CODE_CHUNK_LINES) {
      shown.text = newChunk(shown.code);
      shown.lines = 0;
    }
    let end = text.length;
    for (let nl = text.indexOf('\n', from); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
      shown.lines++;
      if (shown.lines >= CODE_CHUNK_LINES) {
        end = nl + 1;
        break;
      }
    }
    shown.text.appendData(text.slice(from, end));
    shown.length += end - from;
    from = end;
  }
}

/**
 * Markdown in the viewer (docs/viewer.md "Markdown"): the chat's own Markdown component renders it (the one
 * sanitizer in `lib/markdown.ts`, code highlighting, remote images loaded only when clicked), so raw HTML, script
 * links and remote images are inert here exactly as in the chat. Relative links (and the
 * placeholders of local images) open in the viewer; `#anchors` scroll within the document; the headings form an
 * outline beside it. A toggle shows the source in the code view. Scroll position survives a live reload. A large
 * file renders part by part (`splitMarkdown`): the first screen at once, the rest without blocking the page.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { VIEWER_PATH_ATTR } from '../../lib/markdown';
import { Markdown } from '../Markdown';
import { CodeView } from './CodeView';

interface Heading {
  id: string;
  level: number;
  text: string;
}

function slug(text: string, used: Set<string>): string {
  const base = text.toLowerCase().trim().replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'section';
  let id = `md-${base}`;
  for (let n = 2; used.has(id); n++) id = `md-${base}-${n}`;
  used.add(id);
  return id;
}

/** Outline entries shown at most (a 2 MB file can have 15,000 headings; nobody reads an outline that long). */
const MAX_OUTLINE = 400;
const CHUNK_CHARS = 48 * 1024;

/**
 * Splits a large document before ATX headings outside code fences, into parts of about CHUNK_CHARS, so the
 * first screen renders at once and the rest follows part by part without one long task.
 * Limit: a reference-style link whose definition lies in another part renders as text.
 */
export function splitMarkdown(text: string, size = CHUNK_CHARS): string[] {
  if (text.length <= size) return [text];
  const parts: string[] = [];
  let start = 0;
  let fence = false;
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    const lineEnd = end < 0 ? text.length : end + 1;
    const line = text.slice(at, lineEnd);
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    else if (!fence && at - start >= size && /^#{1,6}\s/.test(line)) {
      parts.push(text.slice(start, at));
      start = at;
    }
    at = lineEnd;
  }
  parts.push(text.slice(start));
  return parts;
}

export function MarkdownView({ text, onOpenPath }: { text: string; onOpenPath: (path: string) => void }) {
  const [isSource, setSource] = useState(false);
  const [headings, setHeadings] = useState<Heading[]>([]);
  const parts = useMemo(() => splitMarkdown(text), [text]);
  // Parts on screen; a reload keeps what was shown (so the scroll position still has its content).
  const [shown, setShown] = useState(1);
  useEffect(() => {
    if (shown >= parts.length) return;
    const timer = setTimeout(() => setShown((n) => n + 1), 0);
    return () => clearTimeout(timer);
  }, [shown, parts.length]);
  const body = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);

  // Before paint: name the headings (for the outline and #anchors), and keep the scroll where it was.
  useLayoutEffect(() => {
    const el = body.current;
    if (!el) return;
    const used = new Set<string>();
    const found: Heading[] = [];
    el.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6').forEach((h) => {
      h.id = slug(h.textContent ?? '', used);
      if (found.length < MAX_OUTLINE) found.push({ id: h.id, level: Number(h.tagName[1]), text: h.textContent ?? '' });
    });
    setHeadings(found);
  }, [text, isSource, shown]);

  const lastScroll = useRef(0);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = lastScroll.current;
  }, [text]);

  const onClick = (event: React.MouseEvent) => {
    const link = (event.target as HTMLElement).closest(`a, [${VIEWER_PATH_ATTR}]`);
    if (!link) return;
    const local = link.getAttribute(VIEWER_PATH_ATTR);
    const href = link.getAttribute('href') ?? '';
    if (local !== null) {
      event.preventDefault();
      const [file, anchor] = local.split('#');
      if (file) onOpenPath(safeDecode(file));
      else if (anchor) scrollToHeading(anchor);
    } else if (href.startsWith('#')) {
      event.preventDefault();
      scrollToHeading(href.slice(1));
    } else if (!href) {
      event.preventDefault();
    }
  };

  const scrollToHeading = (anchor: string) => {
    const wanted = anchor.toLowerCase();
    const target = body.current?.querySelector<HTMLElement>(`#md-${CSS.escape(wanted)}`) ?? Array.from(body.current?.querySelectorAll<HTMLElement>('[id]') ?? []).find((h) => h.id.endsWith(wanted));
    target?.scrollIntoView({ block: 'start' });
  };

  return (
    <div className="viewer-markdown-wrap">
      <div className="viewer-toolbar">
        <button className={!isSource ? 'active' : ''} onClick={() => setSource(false)}>Rendered</button>
        <button className={isSource ? 'active' : ''} onClick={() => setSource(true)}>Source</button>
      </div>
      {isSource ? (
        <CodeView text={text} language="markdown" line={null} />
      ) : (
        <div className="viewer-markdown-split">
          {headings.length > 1 && (
            <nav className="viewer-outline" data-testid="viewer-outline" aria-label="Outline">
              {headings.map((h) => (
                <a key={h.id} href={`#${h.id}`} style={{ paddingLeft: (h.level - 1) * 10 + 6 }} onClick={(e) => { e.preventDefault(); document.getElementById(h.id)?.scrollIntoView({ block: 'start' }); }}>
                  {h.text}
                </a>
              ))}
            </nav>
          )}
          <div className="viewer-markdown-scroll" ref={scroller} onScroll={(e) => (lastScroll.current = e.currentTarget.scrollTop)}>
            <div className="viewer-markdown" data-testid="viewer-markdown" ref={body} onClick={onClick}>
              {parts.slice(0, shown).map((part, i) => (
                <Markdown key={i} text={part} />
              ))}
            </div>
          </div>
        </div>
      )}
    </div>
  );
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Markdown in the viewer (docs/viewer.md "Markdown"): rendered by the app's one sanitizer (`lib/markdown.ts`, the
 * same as the chat's), so raw HTML, script links and remote images are inert here exactly as in the chat; a remote
 * image loads only when clicked. Relative links (and the placeholders of local images) open in the viewer;
 * `#anchors` scroll within the document; the headings form an outline beside it. A toggle shows the source in the
 * code view. Any size renders part by part (MarkdownDocument): the first screen at once, the rest in short
 * background tasks. Scroll position survives a live reload (unchanged parts keep their place).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { VIEWER_PATH_ATTR } from '../../lib/markdown';
import { loadClickedImage } from '../Markdown';
import { CodeView } from './CodeView';
import { MarkdownDocument, type MarkdownDocumentHandle } from './MarkdownDocument';
import { MarkdownOutline } from './MarkdownOutline';
import { findHeading, MarkdownScanner, type MarkdownParts } from './markdown-parts';
import { nextTask } from './part-queue';

const SCAN_SLICE_MS = 8;

/**
 * The file's parts: the first part read at once (so it renders with the first paint), the rest read in short
 * tasks. A reload keeps showing the previous reading until the new one is whole, so the parts on screen — and
 * the scroll position — stay.
 */
function useMarkdownParts(text: string): MarkdownParts {
  const first = useMemo(() => {
    const scanner = new MarkdownScanner(text);
    scanner.scan(() => scanner.partCount >= 1);
    return { scanner, result: scanner.result() };
  }, [text]);
  const [whole, setWhole] = useState<{ text: string; result: MarkdownParts } | null>(null);
  useEffect(() => {
    if (first.result.isComplete) return;
    let cancel = () => {};
    const step = () => {
      const started = performance.now();
      if (first.scanner.scan(() => performance.now() - started > SCAN_SLICE_MS))
        setWhole({ text, result: first.scanner.result() });
      else cancel = nextTask(step);
    };
    cancel = nextTask(step);
    return () => cancel();
  }, [first, text]);
  if (first.result.isComplete || whole?.text === text) return first.result.isComplete ? first.result : whole!.result;
  return whole?.result ?? first.result;
}

export function MarkdownView({ text, onOpenPath }: { text: string; onOpenPath: (path: string) => void }) {
  const [isSource, setSource] = useState(false);
  const { parts, heights, headings, isComplete } = useMarkdownParts(text);
  const scroller = useRef<HTMLDivElement>(null);
  const doc = useRef<MarkdownDocumentHandle>(null);

  const scrollToAnchor = (anchor: string) => {
    const heading = findHeading(headings, anchor);
    if (heading) doc.current?.jumpTo(heading);
  };

  const onClick = (event: React.MouseEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    const link = target.closest(`a, [${VIEWER_PATH_ATTR}]`);
    if (!link) return loadClickedImage(event);
    const local = link.getAttribute(VIEWER_PATH_ATTR);
    const href = link.getAttribute('href') ?? '';
    if (local !== null) {
      event.preventDefault();
      const [file, anchor] = local.split('#');
      if (file) onOpenPath(safeDecode(file));
      else if (anchor) scrollToAnchor(anchor);
    } else if (href.startsWith('#')) {
      event.preventDefault();
      scrollToAnchor(safeDecode(href.slice(1)));
    } else if (!href) {
      event.preventDefault();
    }
  };

  return (
    <div className="viewer-markdown-wrap">
      <div className="viewer-toolbar">
        <button className={!isSource ? 'active' : ''} onClick={() => setSource(false)}>
          Rendered
        </button>
        <button className={isSource ? 'active' : ''} onClick={() => setSource(true)}>
          Source
        </button>
        {parts.length > 1 && (
          <span className="muted small">
            {Math.round(text.length / 1024)} KB in {parts.length} parts
          </span>
        )}
      </div>
      {isSource ? (
        <CodeView text={text} language="markdown" line={null} />
      ) : (
        <div className="viewer-markdown-split">
          {headings.length > 1 && <MarkdownOutline headings={headings} onJump={(h) => doc.current?.jumpTo(h)} />}
          <div className="viewer-markdown-scroll" ref={scroller} onClick={onClick} onKeyDown={loadClickedImage}>
            <MarkdownDocument
              ref={doc}
              parts={parts}
              heights={heights}
              isComplete={isComplete}
              headings={headings}
              scroller={scroller}
            />
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

/**
 * The rendered body of a Markdown file in the viewer, part by part (docs/viewer.md "Large Markdown"). Each part is
 * sanitized HTML from the app's one Markdown renderer (lib/markdown.ts), rendered by a PartQueue: the parts on
 * screen first, the rest in short background tasks. A part not rendered yet holds its estimated height, so the
 * scrollbar spans the whole document from the start; a rendered part off screen is skipped by layout
 * (`content-visibility: auto`) and stays searchable. Headings get the outline's ids as their part renders.
 * `jumpTo` renders a heading's part at once and scrolls to it, and keeps it there while the document settles
 * (pin-jump.ts).
 */
import {
  forwardRef,
  memo,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type RefObject,
} from 'react';
import { flushSync } from 'react-dom';
import { highlightWithin } from '../../lib/highlight';
import { renderMarkdownFragment } from '../../lib/markdown';
import type { OutlineHeading } from './markdown-parts';
import { PartQueue } from './part-queue';
import { pinJump } from './pin-jump';

export interface MarkdownDocumentHandle {
  jumpTo(heading: OutlineHeading): void;
}

interface Props {
  parts: string[];
  /** Estimated heights of the parts (markdown-parts.ts). */
  heights: number[];
  /** False while the file is still being read: only the parts in view render, and more parts may follow. */
  isComplete: boolean;
  headings: OutlineHeading[];
  scroller: RefObject<HTMLDivElement | null>;
}

/** A part's sanitized nodes in a box of their own, inserted as they are (never serialized and parsed again). */
function renderPart(text: string): HTMLElement {
  const box = document.createElement('div');
  box.className = 'md-part-body';
  box.append(renderMarkdownFragment(text));
  return box;
}

/** Parts rendered with the first commit: enough to fill a tall window without waiting for a task. */
function firstScreen(queue: PartQueue<HTMLElement>, heights: number[]): void {
  const want = window.innerHeight * 1.2;
  let height = 0;
  for (let i = 0; i < heights.length && height < want; i++) {
    queue.renderNow(i);
    height += heights[i]!;
  }
}

export const MarkdownDocument = forwardRef<MarkdownDocumentHandle, Props>(function MarkdownDocument(
  { parts, heights, isComplete, headings, scroller },
  ref,
) {
  const [queue] = useState(() => new PartQueue(renderPart, (box) => box.cloneNode(true) as HTMLElement));
  const body = useRef<HTMLDivElement>(null);
  useMemo(() => {
    queue.setParts(parts, isComplete);
    firstScreen(queue, heights);
  }, [queue, parts, heights, isComplete]);
  useEffect(() => () => queue.dispose(), [queue]);
  const byPart = useMemo(() => {
    const map = new Map<number, OutlineHeading[]>();
    for (const h of headings) map.set(h.part, [...(map.get(h.part) ?? []), h]);
    return map;
  }, [headings]);

  // Parts coming into view (or near it) go first.
  const [observer, setObserver] = useState<IntersectionObserver | null>(null);
  useEffect(() => {
    // A passive effect: the scroller (a parent) has its ref only after this component's layout effects ran.
    const root = scroller.current;
    if (!root) return;
    const made = new IntersectionObserver(
      (entries) => {
        for (const e of entries) if (e.isIntersecting) queue.want(Number((e.target as HTMLElement).dataset.part));
      },
      { root, rootMargin: '800px 0px' },
    );
    setObserver(made);
    return () => made.disconnect();
  }, [queue, scroller]);

  // "First screen ready": every part that meets the viewport is rendered (the bench and tests wait for it).
  useEffect(() => {
    const check = () => {
      const root = scroller.current;
      const el = body.current;
      if (!root || !el || el.dataset.firstScreen === 'ready') return;
      const view = root.getBoundingClientRect();
      let bottom = view.top;
      for (const part of el.children) {
        const box = part.getBoundingClientRect();
        if (box.top >= view.bottom) break;
        if (box.bottom > view.top && (part as HTMLElement).dataset.rendered !== 'yes') return;
        bottom = box.bottom;
      }
      // Parts still being read may be the ones that fill the rest of the screen.
      if (!isComplete && bottom < view.bottom) return;
      el.dataset.firstScreen = 'ready';
    };
    const update = () => {
      requestAnimationFrame(check);
      if (body.current)
        body.current.dataset.rendered = isComplete && queue.isDone() ? 'all' : String(queue.renderedCount());
    };
    update();
    return queue.subscribe(update);
  }, [queue, scroller, parts, isComplete]);

  useImperativeHandle(
    ref,
    () => ({
      jumpTo(heading) {
        flushSync(() => {
          if (queue.renderNow(heading.part)) queue.notify();
        });
        const part = body.current?.querySelector<HTMLElement>(`[data-part="${heading.part}"]`);
        const target = part?.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6')[heading.index] ?? part;
        if (target && scroller.current && body.current) pinJump(scroller.current, body.current, target);
      },
    }),
    [queue, scroller],
  );

  return (
    <div className="viewer-markdown markdown" data-testid="viewer-markdown" ref={body}>
      {parts.map((text, i) => (
        <Part
          key={i}
          index={i}
          text={text}
          estimate={heights[i]!}
          queue={queue}
          observer={observer}
          headings={byPart.get(i)}
        />
      ))}
    </div>
  );
});

interface PartProps {
  index: number;
  /** The part's source: a reload that changes it renders this part again (the queue holds the HTML). */
  text: string;
  estimate: number;
  queue: PartQueue<HTMLElement>;
  observer: IntersectionObserver | null;
  headings: OutlineHeading[] | undefined;
}

const Part = memo(function Part({ index, estimate, queue, observer, headings }: PartProps) {
  const node = useSyncExternalStore(
    (listener) => queue.subscribe(listener),
    () => queue.partOf(index),
  );
  const el = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = el.current;
    if (!host || node !== null || !observer) return;
    observer.observe(host);
    return () => observer.unobserve(host);
  }, [observer, node]);

  // Before paint: the part's nodes into place (React leaves this element's children to us), the outline's ids on
  // its headings (a part whose headings the source scan counted differently gets ids of its own), and its code
  // blocks highlighted in the background.
  useLayoutEffect(() => {
    const host = el.current;
    if (!host) return;
    if (node === null) {
      host.replaceChildren();
      return;
    }
    if (host.firstChild !== node) host.replaceChildren(node);
    const found = node.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6');
    found.forEach(
      (h, k) => (h.id = headings && headings.length === found.length ? headings[k]!.id : `md-part-${index}-${k + 1}`),
    );
    if (node.querySelector('pre')) void highlightWithin(node);
  }, [node, headings, index]);

  return node === null ? (
    <div className="md-part pending" data-part={index} ref={el} style={{ height: estimate }} />
  ) : (
    <div
      className="md-part"
      data-part={index}
      data-rendered="yes"
      ref={el}
      style={{ containIntrinsicSize: `auto ${estimate}px` }}
    />
  );
});

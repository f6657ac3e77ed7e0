/**
 * The headings of a Markdown file beside it (docs/viewer.md "Markdown"), read from the source so the outline is
 * whole before the document has rendered. Virtualized (@tanstack/react-virtual): a file with 10,000 headings
 * costs the rows on screen only. A click jumps to the heading.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { OutlineHeading } from './markdown-parts';

const ROW = 22;

export function MarkdownOutline({
  headings,
  onJump,
}: {
  headings: OutlineHeading[];
  onJump: (heading: OutlineHeading) => void;
}) {
  const scroller = useRef<HTMLElement>(null);
  const rows = useVirtualizer({
    count: headings.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  return (
    <nav className="viewer-outline" data-testid="viewer-outline" aria-label="Outline" ref={scroller}>
      <div style={{ height: rows.getTotalSize(), position: 'relative' }}>
        {rows.getVirtualItems().map((row) => {
          const h = headings[row.index]!;
          return (
            <a
              key={row.key}
              href={`#${h.id}`}
              style={{
                position: 'absolute',
                top: row.start,
                left: 0,
                right: 0,
                height: ROW,
                paddingLeft: (h.level - 1) * 10 + 6,
              }}
              title={h.text}
              onClick={(e) => {
                e.preventDefault();
                onJump(h);
              }}
            >
              {h.text || '(untitled)'}
            </a>
          );
        })}
      </div>
    </nav>
  );
}

/**
 * A tool card's result text. A search tool's hits (`search_file`'s `12:text`, `grep_files`' `path:12:text`) start
 * with a link that opens that file in the viewer at that line — the same renderer-local open as the card's path
 * (docs/viewer.md "How a file reaches the viewer"); the bytes still come only through the core's handle.
 */
import { useMemo } from 'react';
import type { ToolCard } from '../../../shared/contract/chat';
import { searchHits } from './viewer/tool-range';
import type { ToolCardActions } from './tool-card-actions';

export function ToolCardResult({ card, actions }: { card: ToolCard & { result: string }; actions: ToolCardActions }) {
  const lines = useMemo(() => searchHits(card), [card]);
  if (!lines?.some((l) => l.hit)) return <pre className="result">{card.result}</pre>;
  return (
    <pre className="result" data-testid="tool-result">
      {lines.map((l, i) => (
        <span key={i}>
          {l.hit ? (
            <>
              <a
                href="#"
                className="tool-hit"
                data-testid="tool-hit"
                title={`Open ${l.hit.path} at line ${l.hit.line}`}
                onClick={(e) => {
                  e.preventDefault();
                  actions.openPath(l.hit!.path, card.tool_call_id, l.hit!.line);
                }}
              >
                {l.text.slice(0, l.hit.prefix)}
              </a>
              {l.text.slice(l.hit.prefix)}
            </>
          ) : (
            l.text
          )}
          {i < lines.length - 1 ? '\n' : ''}
        </span>
      ))}
    </pre>
  );
}

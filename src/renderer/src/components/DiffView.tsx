/** A line diff of a write's old and new content (the approval card and the tool card's before/after). */
import { useMemo } from 'react';
import { lineDiff } from '../lib/line-diff';
import { revealInvisible } from '../lib/visible-chars';

export function DiffView({ oldText, newText }: { oldText: string | null; newText: string | null }) {
  // Computed once per texts, not on every render of the card (a big diff costs up to DIFF_TIMEOUT_MS).
  const parts = useMemo(() => (newText === null ? [] : lineDiff(oldText ?? '', newText)), [oldText, newText]);
  if (newText === null) return <div className="muted">No preview of the new content; see the full arguments.</div>;
  return (
    <pre className="diff" data-testid="diff">
      {parts.map((part, i) => (
        <span key={i} className={part.added ? 'diff-add' : part.removed ? 'diff-del' : 'diff-same'}>
          {part.value
            .replace(/\n$/, '')
            .split('\n')
            .map((line) => `${part.added ? '+' : part.removed ? '-' : ' '} ${revealInvisible(line)}`)
            .join('\n') + '\n'}
        </span>
      ))}
    </pre>
  );
}

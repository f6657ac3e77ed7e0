/** A line diff of a write's old and new content (the approval card and the tool card's before/after). */
import { diffLines } from 'diff';
import { revealInvisible } from '../lib/visible-chars';

export function DiffView({ oldText, newText }: { oldText: string | null; newText: string | null }) {
  if (newText === null) return <div className="muted">No preview of the new content; see the full arguments.</div>;
  const parts = diffLines(oldText ?? '', newText);
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

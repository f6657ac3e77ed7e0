/**
 * A line diff of a write's old and new content (the approval card and the tool card's before/after). Readable as text
 * (docs/ui.md "What is announced"): a screen reader first hears how many lines are added and removed, then each
 * changed line with a hidden "added" or "removed" before its + or -, since colour alone says nothing to it.
 */
import { Fragment, useMemo } from 'react';
import { lineDiff } from '../lib/line-diff';
import { revealInvisible } from '../lib/visible-chars';

const linesOf = (value: string) => value.replace(/\n$/, '').split('\n');

export function DiffView({ oldText, newText }: { oldText: string | null; newText: string | null }) {
  // Computed once per texts, not on every render of the card (a big diff costs up to DIFF_TIMEOUT_MS).
  const parts = useMemo(() => (newText === null ? [] : lineDiff(oldText ?? '', newText)), [oldText, newText]);
  if (newText === null) return <div className="muted">No preview of the new content; see the full arguments.</div>;
  const count = (added: boolean) =>
    parts.filter((p) => (added ? p.added : p.removed)).reduce((n, p) => n + linesOf(p.value).length, 0);
  const lines = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;
  return (
    <pre className="diff" data-testid="diff">
      <span className="sr-only">{`Changes: ${lines(count(true))} added, ${lines(count(false))} removed.\n`}</span>
      {parts.map((part, i) => {
        const sign = part.added ? '+' : part.removed ? '-' : ' ';
        const className = part.added ? 'diff-add' : part.removed ? 'diff-del' : 'diff-same';
        if (!part.added && !part.removed)
          return (
            <span key={i} className={className}>
              {linesOf(part.value)
                .map((line) => `${sign} ${revealInvisible(line)}`)
                .join('\n') + '\n'}
            </span>
          );
        const said = part.added ? 'added: ' : 'removed: ';
        return (
          <span key={i} className={className}>
            {linesOf(part.value).map((line, j) => (
              <Fragment key={j}>
                <span className="sr-only">{said}</span>
                {`${sign} ${revealInvisible(line)}\n`}
              </Fragment>
            ))}
          </span>
        );
      })}
    </pre>
  );
}

/**
 * A label whose backticked parts are shown as code, never as backticks (shared/labels.ts): `tool` for a tool
 * call's label (one code part, the command or path), `text` for short texts with several (bypass scopes).
 */
import { labelSegments, toolLabelSegments } from '../../../shared/labels';

export function CodeLabel({
  text,
  kind = 'text',
  className,
  'data-testid': testId,
}: {
  text: string;
  kind?: 'tool' | 'text';
  className?: string;
  'data-testid'?: string;
}) {
  const segments = kind === 'tool' ? toolLabelSegments(text) : labelSegments(text);
  return (
    <span className={className} data-testid={testId}>
      {segments.map((s, i) => (s.code ? <code key={i}>{s.text}</code> : <span key={i}>{s.text}</span>))}
    </span>
  );
}

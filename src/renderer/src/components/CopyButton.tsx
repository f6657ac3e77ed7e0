/** A small "Copy" button that says "Copied" (or that it could not) for a moment after a click. */
import { useEffect, useState } from 'react';
import { copyText } from '../lib/copy-text';

export const COPIED_MS = 1_500;

export function CopyButton({ text, label = 'Copy', testId }: { text: () => string; label?: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="ghost small copy-button"
      data-testid={testId}
      aria-live="polite"
      onClick={(e) => {
        e.stopPropagation();
        void copyText(text()).then((ok) => setState(ok ? 'copied' : 'failed'));
      }}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy' : label}
    </button>
  );
}

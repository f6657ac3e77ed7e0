/**
 * Retry / Continue under the messages (docs/chat-ui.md "Retry and Continue"): shown while no turn runs and the chat
 * waits for the model (src/shared/awaiting-answer.ts, the same test the core applies to `chat:retry`). It follows the
 * history, not the error notice, so it is there after a restart too. It fades in after a moment: between a sent
 * message's echo and its turn's start the chat waits for a few milliseconds, and the bar must not flash there.
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { awaitingAnswer } from '../../../shared/awaiting-answer';
import { chat } from '../stores/chat-store';

const TEXT = {
  retry: {
    says: 'The model has not answered this message.',
    button: 'Retry',
    title: 'Ask the model again, with the chat as it is',
  },
  continue: {
    says: 'The model has not read the results of its last calls.',
    button: 'Continue',
    title: 'Let the model go on from these results',
  },
} as const;

export function RetryBar({ sessionId }: { sessionId: number }) {
  const waiting = useStore(chat.store, (s) =>
    s.loaded && s.sessionId === sessionId && !s.running ? awaitingAnswer(s.messages) : null,
  );
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  if (!waiting) return null;
  const text = TEXT[waiting];
  const go = async () => {
    setSending(true);
    setError(null);
    try {
      await chat.retry();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="retry-bar" role="status" data-testid="retry-bar">
      <span>{text.says}</span>
      <button
        className="primary"
        onClick={() => void go()}
        disabled={sending}
        title={text.title}
        data-testid="retry-button"
      >
        {text.button}
      </button>
      {error && <span className="error">{error}</span>}
    </div>
  );
}

/**
 * The message box: Enter sends, Shift+Enter is a new line; Stop sits beside Send while a turn runs. A message past
 * what one message may hold (a pasted log) is not sent: the box says so and what to do, and keeps the text.
 */
import { useState } from 'react';
import { MAX_MESSAGE_CHARS } from '../../../shared/contract/chat';

const count = (n: number) => n.toLocaleString('en-US');

export function Composer({ running, onSend, onStop }: { running: boolean; onSend: (text: string) => Promise<void>; onStop: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const isTooLong = text.length > MAX_MESSAGE_CHARS;
  const send = async () => {
    const content = text.trim();
    if (!content || isTooLong) return;
    setError(null);
    try {
      await onSend(content);
      setText('');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div className="composer">
      {error && <div className="error">{error}</div>}
      {isTooLong && (
        <div className="error" data-testid="composer-too-long">
          This message has {count(text.length)} characters; one message holds at most {count(MAX_MESSAGE_CHARS)}. Save the text as a file in the
          workspace and ask the agent to read it.
        </div>
      )}
      <textarea
        data-testid="composer"
        placeholder={running ? 'The agent is working — a message now is added at its next step' : 'Message the agent, or /help'}
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div className="composer-actions">
        {running && (
          <button className="danger" data-testid="stop" onClick={onStop}>
            Stop
          </button>
        )}
        <button className="primary" data-testid="send" disabled={isTooLong} onClick={() => void send()}>
          Send
        </button>
      </div>
    </div>
  );
}

/** The message box: Enter sends, Shift+Enter is a new line; Stop sits beside Send while a turn runs. */
import { useState } from 'react';

export function Composer({ running, onSend, onStop }: { running: boolean; onSend: (text: string) => Promise<void>; onStop: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    const content = text.trim();
    if (!content) return;
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
        <button className="primary" data-testid="send" onClick={() => void send()}>
          Send
        </button>
      </div>
    </div>
  );
}

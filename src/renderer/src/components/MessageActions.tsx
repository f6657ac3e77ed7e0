/**
 * Regenerate and Edit in the chat (docs/chat-ui.md "Regenerate and Edit"): Edit under the person's newest message
 * turns it into a box holding its text (Enter sends, Esc gives up), Regenerate beside the newest answer's Copy. The
 * core decides whether the exchange may be replaced and says why not; that sentence shows under the message.
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { skald } from '../bridge/skald';
import { chat } from '../stores/chat-store';

const sessionId = () => chat.store.getState().sessionId;

/** A call's refusal as a sentence under the message, or null; `run` returns whether the call went through. */
function useCall(): [string | null, (call: () => Promise<unknown>) => Promise<boolean>] {
  const [error, setError] = useState<string | null>(null);
  const run = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      return true;
    } catch (e) {
      setError((e as Error).message);
      return false;
    }
  };
  return [error, run];
}

export function RegenerateButton() {
  const [error, run] = useCall();
  return (
    <>
      <button
        className="link-button"
        data-testid="regenerate"
        title="Ask the model for this answer again (this one stays, marked replaced)"
        onClick={() => void run(async () => skald.chat.regenerate({ sessionId: sessionId()! }))}
      >
        Regenerate
      </button>
      {error && (
        <span className="msg-action-error" data-testid="message-action-error">
          {error}
        </span>
      )}
    </>
  );
}

/** The person's newest message: its text, with Edit; while editing, a box in its place. */
export function EditableUserText({
  messageId,
  content,
  actions,
}: {
  messageId: number;
  content: string;
  /** The message's other actions (Rewind to here), shown in the same row as Edit. */
  actions?: ReactNode;
}) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(content);
  const [error, run] = useCall();
  // Arrow Up in the empty message box asks for it (components/Composer.tsx): only a request made after this mounted.
  const editNewest = useStore(chat.store, (s) => s.editNewest ?? 0);
  const seen = useRef(editNewest);
  useEffect(() => {
    if (editNewest === seen.current) return;
    seen.current = editNewest;
    setText(content);
    setEditing(true);
  }, [editNewest, content]);
  const send = async () => {
    const sent = await run(async () =>
      skald.chat.editMessage({ sessionId: sessionId()!, messageId, content: text.trim() }),
    );
    if (sent) setEditing(false);
  };
  if (!editing) {
    return (
      <>
        {content && <div className="msg-text">{content}</div>}
        <div className="msg-actions">
          <button
            className="link-button"
            data-testid="edit-message"
            title="Change this message and send it again (this one stays, marked replaced)"
            onClick={() => (setText(content), setEditing(true))}
          >
            Edit
          </button>
          {actions}
        </div>
        {error && (
          <div className="msg-action-error" data-testid="message-action-error">
            {error}
          </div>
        )}
      </>
    );
  }
  return (
    <div className="msg-edit">
      <textarea
        data-testid="edit-box"
        aria-label="Edit your message"
        value={text}
        rows={Math.min(10, Math.max(2, text.split('\n').length))}
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          } else if (e.key === 'Escape') {
            e.preventDefault(); // gives up the edit; never stops a running turn (App's Esc)
            setEditing(false);
          }
        }}
      />
      <div className="msg-edit-actions">
        <button onClick={() => setEditing(false)}>Cancel</button>
        <button className="primary" data-testid="edit-send" disabled={!text.trim()} onClick={() => void send()}>
          Send
        </button>
      </div>
      {error && (
        <div className="msg-action-error" data-testid="message-action-error">
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * Esc Esc in the chat (docs/rewind.md "In the chat"): a list of the person's messages in the open chat, newest first;
 * Enter or a click opens the Rewind dialog for it. Only the messages loaded in the chat are listed.
 */
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { useDialogFocus } from '../../lib/use-dialog-focus';
import { chat } from '../../stores/chat-store';
import { closeRewind, openRewind } from './rewind-store';
import './rewind.css';

export function RewindPicker() {
  const sessionId = useStore(chat.store, (s) => s.sessionId);
  const all = useStore(chat.store, (s) => s.messages);
  const messages = all.filter((m) => m.role === 'user' && !m.replaced && !m.queued && m.status === 'ok').reverse();
  const [index, setIndex] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  // Kept inside while open, Escape closes it, the focus back where it was (lib/use-dialog-focus.ts); the list first.
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => list.current?.focus(), []);
  useDialogFocus(dialog, closeRewind);
  useEffect(() => {
    document.getElementById(`rewind-pick-${messages[index]?.id}`)?.scrollIntoView({ block: 'nearest' });
  }, [index, messages]);
  const pick = (i: number) => {
    const m = messages[i];
    if (m && sessionId !== null) openRewind(sessionId, m.id);
  };
  return (
    <div className="overlay" role="presentation" onMouseDown={closeRewind}>
      <div
        ref={dialog}
        tabIndex={-1}
        className="dialog switcher rewind-picker"
        role="dialog"
        aria-modal="true"
        aria-label="Rewind to one of your messages"
        data-testid="rewind-picker"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <h2 className="rewind-picker-title">Rewind to before…</h2>
        {messages.length === 0 ? (
          <p className="muted small">You have sent no message in this chat yet.</p>
        ) : (
          <ul
            ref={list}
            role="listbox"
            tabIndex={0}
            aria-label="Your messages"
            aria-activedescendant={messages[index] ? `rewind-pick-${messages[index]!.id}` : undefined}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') setIndex(Math.min(index + 1, messages.length - 1));
              else if (e.key === 'ArrowUp') setIndex(Math.max(index - 1, 0));
              else if (e.key === 'Enter') pick(index);
              else if (e.key === 'Escape') closeRewind();
              else return;
              e.preventDefault();
              e.stopPropagation();
            }}
          >
            {messages.map((m, i) => (
              <li
                key={m.id}
                id={`rewind-pick-${m.id}`}
                role="option"
                aria-selected={i === index}
                className={i === index ? 'is-active' : ''}
                data-testid="rewind-pick"
                onMouseEnter={() => setIndex(i)}
                onClick={() => pick(i)}
              >
                <span className="rewind-pick-text">{m.content || '(images only)'}</span>
                <span className="muted small">{new Date(m.created_at).toLocaleTimeString()}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

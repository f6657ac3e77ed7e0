/**
 * Ctrl/Cmd+K (docs/ui.md): a small dialog to jump to a session by typing part of its title, and below the titles the
 * messages that hold the typed text ("In messages", docs/ui.md "Searching chats"). Arrow keys move through both,
 * Enter opens the chat, Esc closes; focus returns to where it was.
 */
import { useEffect, useRef, useState } from 'react';
import { useDialogFocus } from '../lib/use-dialog-focus';
import { useStore } from 'zustand';
import type { ChatSearchHit } from '../../../shared/contract/chat';
import { skald } from '../bridge/skald';
import { chat } from '../stores/chat-store';
import { selectSession, sessionsStore } from '../stores/sessions-store';

/** The core scans every message for a search (no index): wait for a pause in the typing, and for two characters. */
const SEARCH_DELAY_MS = 150;
const SEARCH_MIN_CHARS = 2;
const MAX_QUERY_CHARS = 200; // the contract's limit of `chat:search`

/** The hits of the typed text, asked once the typing pauses; an answer for an older text is dropped. */
function useMessageSearch(query: string): ChatSearchHit[] {
  const [found, setFound] = useState<{ text: string; hits: ChatSearchHit[] } | null>(null);
  const text = query.trim();
  useEffect(() => {
    if (text.length < SEARCH_MIN_CHARS) return;
    let isCurrent = true;
    const timer = setTimeout(() => {
      skald.chat.search({ query: text }).then(
        ({ hits }) => isCurrent && setFound({ text, hits }),
        () => {}, // replaced by a newer search, or the app is closing: the newer answer, if any, shows
      );
    }, SEARCH_DELAY_MS);
    return () => {
      isCurrent = false;
      clearTimeout(timer);
    };
  }, [text]);
  // The last answer stays while the next is on its way, so the list does not flicker at each key.
  return text.length >= SEARCH_MIN_CHARS && found ? found.hits : [];
}

function when(epochMs: number): string {
  const date = new Date(epochMs);
  const isToday = date.toDateString() === new Date().toDateString();
  return isToday
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString([], { month: 'short', day: 'numeric', year: 'numeric' });
}

function MessageHit({ hit, title }: { hit: ChatSearchHit; title: string }) {
  const { snippet, match_start: at, match_length: length } = hit;
  return (
    <>
      <span className="switcher-hit-head">
        <span className="switcher-hit-title">{title}</span>
        <span className="muted small">
          {hit.role === 'user' ? 'You' : 'Assistant'} · {when(hit.created_at)}
        </span>
      </span>
      <span className="switcher-hit-snippet" data-testid="switcher-hit-snippet">
        {snippet.slice(0, at)}
        {length > 0 && <mark>{snippet.slice(at, at + length)}</mark>}
        {snippet.slice(at + length)}
      </span>
    </>
  );
}

export function SessionSwitcher({ onClose }: { onClose: () => void }) {
  const sessions = useStore(sessionsStore, (s) => s.sessions);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  // Focus into the box, kept in the dialog, and back to where it was on close (lib/use-dialog-focus.ts).
  const dialog = useRef<HTMLDivElement>(null);
  useDialogFocus(dialog, onClose);
  const q = query.trim().toLowerCase();
  const matches = sessions.filter((s) => !q || s.title.toLowerCase().includes(q)).slice(0, 12);
  const hits = useMessageSearch(query);
  // One list for the arrow keys: the title matches, then the messages.
  const targets: { sessionId: number; messageId?: number }[] = [
    ...matches.map((s) => ({ sessionId: s.id })),
    ...hits.map((hit) => ({ sessionId: hit.session_id, messageId: hit.message_id })),
  ];
  const active = Math.min(index, targets.length - 1);
  const activeId =
    active < 0
      ? undefined
      : active < matches.length
        ? `switch-${matches[active]!.id}`
        : `switch-msg-${hits[active - matches.length]!.message_id}`;
  // Up to 62 rows: the one the arrows reached stays in view.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [activeId]);
  const titleOf = (hit: ChatSearchHit) => sessions.find((s) => s.id === hit.session_id)?.title ?? hit.session_title;
  /** Opens the chat; a message hit is then brought into view there (chat-store `reveal`). */
  const open = (target: { sessionId: number; messageId?: number } | undefined) => {
    if (target === undefined) return;
    if (target.messageId !== undefined) chat.reveal(target.sessionId, target.messageId);
    selectSession(target.sessionId);
    onClose();
  };
  return (
    <div className="overlay" role="presentation" onMouseDown={onClose}>
      <div
        ref={dialog}
        className="dialog switcher"
        role="dialog"
        aria-modal="true"
        aria-label="Switch session"
        data-testid="session-switcher"
        onMouseDown={(e) => e.stopPropagation()}
      >
        <input
          aria-label="Find a session"
          role="combobox"
          aria-expanded="true"
          aria-controls="switcher-list"
          aria-activedescendant={activeId}
          placeholder="Switch to a session or find a message…"
          maxLength={MAX_QUERY_CHARS}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setIndex(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setIndex(Math.max(0, Math.min(active + 1, targets.length - 1)));
            else if (e.key === 'ArrowUp') setIndex(Math.max(active - 1, 0));
            else if (e.key === 'Enter') open(targets[active]);
            else if (e.key === 'Escape') {
              e.stopPropagation();
              onClose();
            } else return;
            e.preventDefault();
          }}
        />
        <ul id="switcher-list" role="listbox" aria-label="Sessions">
          {matches.map((s, i) => (
            <li
              key={s.id}
              id={`switch-${s.id}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'is-active' : ''}
              onMouseDown={() => open({ sessionId: s.id })}
            >
              {s.running && <span className="running-dot" aria-label="running" />}
              {s.title}
            </li>
          ))}
          {matches.length === 0 && hits.length === 0 && <li className="muted">No session matches.</li>}
          {hits.length > 0 && (
            <li role="presentation" className="switcher-section">
              In messages
            </li>
          )}
          {hits.map((hit, j) => {
            const i = matches.length + j;
            return (
              <li
                key={`msg-${hit.message_id}`}
                id={`switch-msg-${hit.message_id}`}
                role="option"
                aria-selected={i === active}
                className={`switcher-hit${i === active ? ' is-active' : ''}`}
                data-testid="switcher-hit"
                onMouseDown={() => open({ sessionId: hit.session_id, messageId: hit.message_id })}
              >
                <MessageHit hit={hit} title={titleOf(hit)} />
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}

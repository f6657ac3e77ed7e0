/**
 * The session list folded to an icon rail when the window is narrow (lib/layout.ts, docs/ui.md "Fits any window"): show
 * the chats (the full list over the chat, closed by Escape, a click beside it, or once a chat is opened), start a new
 * chat, find one (Ctrl/Cmd+K). A dot on the first button says a chat's turn is running.
 */
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { createSession, sessionsStore } from '../stores/sessions-store';
import { SessionList, StrokeIcon } from './SessionList';

const ListIcon = () => <StrokeIcon size={16} d="M2.5 4h11M2.5 8h11M2.5 12h11" />;
const PlusIcon = () => <StrokeIcon size={16} d="M8 2.5v11M2.5 8h11" />;
const SearchIcon = () => <StrokeIcon size={16} d="M7 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zM10.6 10.6 14 14" />;

export function SessionRail({ onFind }: { onFind: () => void }) {
  const [open, setOpen] = useState(false);
  const showButton = useRef<HTMLButtonElement>(null);
  const running = useStore(sessionsStore, (s) => s.sessions.some((x) => x.running));
  useEffect(() => {
    if (!open) return;
    // In the capture phase, before the app's own Escape (which stops a running turn): the key closes the list and does
    // nothing else. A chat's title being renamed in the list keeps its Escape (it gives the rename up).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (e.target instanceof Element && e.target.closest('.session-flyout input')) return;
      e.preventDefault();
      const hadFocus = document.querySelector('.session-flyout')?.contains(document.activeElement);
      setOpen(false);
      if (hadFocus) showButton.current?.focus();
    };
    // Opened by the keyboard, the list takes the focus at the open chat (else its first row), as a menu does.
    const frame = requestAnimationFrame(() => {
      if (showButton.current !== document.activeElement) return;
      const list = document.querySelector('.session-flyout');
      list?.querySelector<HTMLElement>('.session-open[aria-current="page"], .session-open')?.focus();
    });
    window.addEventListener('keydown', onKey, true);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [open]);
  const isMac = /Mac/i.test(navigator.platform);
  return (
    <>
      <nav className="session-rail" aria-label="Chats, folded" data-testid="session-rail">
        <button
          ref={showButton}
          className="icon ghost rail-button"
          aria-label="Show the chats"
          aria-expanded={open}
          title="Chats"
          data-testid="rail-chats"
          onClick={() => setOpen(!open)}
        >
          <ListIcon />
          {running && <span className="running-dot rail-dot" title="A chat is running" />}
        </button>
        <button
          className="icon ghost rail-button"
          aria-label="New session"
          title="New session"
          data-testid="rail-new-session"
          onClick={() => void createSession()}
        >
          <PlusIcon />
        </button>
        <button
          className="icon ghost rail-button"
          aria-label="Find a chat"
          title={`Find a chat (${isMac ? '⌘' : 'Ctrl'}+K)`}
          onClick={onFind}
        >
          <SearchIcon />
        </button>
      </nav>
      {open && (
        <>
          <div className="session-flyout-backdrop" onClick={() => setOpen(false)} />
          <SessionList flyout onDone={() => setOpen(false)} />
        </>
      )}
    </>
  );
}

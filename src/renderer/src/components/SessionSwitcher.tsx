/**
 * Ctrl/Cmd+K (docs/ui.md): a small dialog to jump to a session by typing part of its title. Arrow keys move,
 * Enter opens, Esc closes; focus returns to where it was.
 */
import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { selectSession, sessionsStore } from '../stores/sessions-store';

export function SessionSwitcher({ onClose }: { onClose: () => void }) {
  const sessions = useStore(sessionsStore, (s) => s.sessions);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    input.current?.focus();
    return () => before?.focus?.();
  }, []);
  const q = query.trim().toLowerCase();
  const matches = sessions.filter((s) => !q || s.title.toLowerCase().includes(q)).slice(0, 12);
  const open = (id: number | undefined) => {
    if (id === undefined) return;
    selectSession(id);
    onClose();
  };
  return (
    <div className="overlay" role="presentation" onMouseDown={onClose}>
      <div className="dialog switcher" role="dialog" aria-modal="true" aria-label="Switch session" data-testid="session-switcher" onMouseDown={(e) => e.stopPropagation()}>
        <input
          ref={input}
          aria-label="Find a session"
          role="combobox"
          aria-expanded="true"
          aria-controls="switcher-list"
          aria-activedescendant={matches[index] ? `switch-${matches[index].id}` : undefined}
          placeholder="Switch to session…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setIndex(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setIndex((i) => Math.min(i + 1, matches.length - 1));
            else if (e.key === 'ArrowUp') setIndex((i) => Math.max(i - 1, 0));
            else if (e.key === 'Enter') open(matches[index]?.id);
            else if (e.key === 'Escape') {
              e.stopPropagation();
              onClose();
            } else return;
            e.preventDefault();
          }}
        />
        <ul id="switcher-list" role="listbox" aria-label="Sessions">
          {matches.map((s, i) => (
            <li key={s.id} id={`switch-${s.id}`} role="option" aria-selected={i === index} className={i === index ? 'is-active' : ''} onMouseDown={() => open(s.id)}>
              {s.running && <span className="running-dot" aria-label="running" />}
              {s.title}
            </li>
          ))}
          {matches.length === 0 && <li className="muted">No session matches.</li>}
        </ul>
      </div>
    </div>
  );
}

/**
 * The left column: sessions, newest first; a dot marks a running turn. Only the rows on screen (and a few around
 * them) exist: a person with thousands of chats had each one laid out before the first screen (5,000 rows: a 190 ms
 * task and a quarter of a second more before the window was usable).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { useStore } from 'zustand';
import { createSession, selectSession, sessionsStore } from '../stores/sessions-store';

/** A row's height and the gap under it (styles.css `.session-item`). */
const ROW_PX = 34;

export function SessionList() {
  const { sessions, activeId } = useStore(sessionsStore);
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({ count: sessions.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_PX, overscan: 12 });
  return (
    <nav className="session-list">
      <button className="primary new-session" data-testid="new-session" onClick={() => void createSession()}>
        New session
      </button>
      <div className="session-scroll" ref={scrollRef}>
        <div className="session-rows" style={{ height: rows.getTotalSize() }}>
          {rows.getVirtualItems().map((row) => {
            const s = sessions[row.index]!;
            return (
              <div
                key={s.id}
                className={`session-item${s.id === activeId ? ' active' : ''}`}
                style={{ transform: `translateY(${row.start}px)` }}
                onClick={() => selectSession(s.id)}
                data-testid="session-item"
              >
                {s.running && <span className="running-dot" title="running" />}
                <span className="session-title">{s.title}</span>
              </div>
            );
          })}
        </div>
      </div>
    </nav>
  );
}

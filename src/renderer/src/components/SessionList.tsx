/** The left column: sessions, newest first; a dot marks a running turn. */
import { useStore } from 'zustand';
import { createSession, selectSession, sessionsStore } from '../stores/sessions-store';

export function SessionList() {
  const { sessions, activeId } = useStore(sessionsStore);
  return (
    <nav className="session-list">
      <button className="primary new-session" data-testid="new-session" onClick={() => void createSession()}>
        New session
      </button>
      {sessions.map((s) => (
        <div key={s.id} className={`session-item${s.id === activeId ? ' active' : ''}`} onClick={() => selectSession(s.id)} data-testid="session-item">
          {s.running && <span className="running-dot" title="running" />}
          <span className="session-title">{s.title}</span>
        </div>
      ))}
    </nav>
  );
}

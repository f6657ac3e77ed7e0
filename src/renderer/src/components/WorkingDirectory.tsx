/**
 * The session's working directory: where relative paths resolve and the file tools may work. `WorkingDirectory`
 * edits it in the chat bar; `SessionDirectory` shows the open session's in the header (the default only when no
 * session is open).
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { skald } from '../bridge/skald';
import { activeSession, sessionsStore } from '../stores/sessions-store';

export function WorkingDirectory({ sessionId, current, onChanged }: { sessionId: number; current: string; onChanged: () => void }) {
  const [path, setPath] = useState(current);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setPath(current), [current]);
  const apply = () => {
    setError(null);
    skald.chat.setWorkingDirectory({ sessionId, path }).then(onChanged, (e: Error) => setError(e.message));
  };
  return (
    <label className="workdir">
      <span className="muted small">Working directory</span>
      <span className="workdir-row">
        <input data-testid="workdir" value={path} onChange={(e) => setPath(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && apply()} />
        {path !== current && <button onClick={apply}>Set</button>}
      </span>
      {error && <span className="error small">{error}</span>}
    </label>
  );
}

export function SessionDirectory({ fallback }: { fallback: string }) {
  const dir = useStore(sessionsStore, (s) => activeSession(s)?.working_directory) ?? fallback;
  return (
    <span className="session-dir" data-testid="header-workdir" title="The open session's working directory">
      in <code>{dir}</code>
    </span>
  );
}

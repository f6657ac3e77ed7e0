/**
 * The session's working directory: where relative paths resolve and the file tools may work. `WorkingDirectory`
 * edits it in the chat bar, with its AGENTS.md when it has one; `SessionDirectory` shows the open session's in the header (the default only when no
 * session is open).
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { skald } from '../bridge/skald';
import { activeSession, sessionsStore } from '../stores/sessions-store';
import { openInViewer } from '../stores/viewer-store';

type Instructions = { path: string | null; included: boolean; note: string | null };

/**
 * The working directory's AGENTS.md, when it has one (docs/chat-ui.md "Project instructions"): a link that opens it
 * in the viewer, saying whether the model gets it. Asked again when the directory changes and when a turn ends (the
 * agent may have written it).
 */
function InstructionsFile({ sessionId, current, running }: { sessionId: number; current: string; running: boolean }) {
  const [found, setFound] = useState<Instructions | null>(null);
  useEffect(() => {
    if (running) return;
    let live = true;
    skald.chat.projectInstructions({ sessionId }).then(
      (f) => live && setFound(f),
      () => live && setFound(null),
    );
    return () => void (live = false);
  }, [sessionId, current, running]);
  if (!found?.path) return null;
  const title = found.included
    ? `The model is given this file as the project's instructions.${found.note ? ` ${found.note}` : ''}`
    : (found.note ?? 'Not given to the model.');
  return (
    <a
      href="#"
      className={`instructions-file${found.included ? '' : ' not-included'}`}
      data-testid="instructions-file"
      data-included={found.included}
      title={title}
      onClick={(e) => {
        e.preventDefault();
        openInViewer(found.path!, { sessionId });
      }}
    >
      AGENTS.md{found.included ? '' : ' (not read)'}
    </a>
  );
}

export function WorkingDirectory({
  sessionId,
  current,
  running,
  onChanged,
}: {
  sessionId: number;
  current: string;
  running: boolean;
  onChanged: () => void;
}) {
  const [path, setPath] = useState(current);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setPath(current), [current]);
  const apply = () => {
    setError(null);
    skald.chat.setWorkingDirectory({ sessionId, path }).then(onChanged, (e: Error) => setError(e.message));
  };
  return (
    <label className="workdir">
      <span className="workdir-head">
        <span className="muted small">Working directory</span>
        <InstructionsFile sessionId={sessionId} current={current} running={running} />
      </span>
      <span className="workdir-row">
        <input
          data-testid="workdir"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && apply()}
        />
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
      in{' '}
      <code>
        <bdi>{dir}</bdi>
      </code>
    </span>
  );
}

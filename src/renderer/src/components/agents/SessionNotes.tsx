/**
 * The session's notes (docs/agents.md "Session tools"): under the chat, the live checklist of `write_todos` (the
 * latest list of the session's agent and of each sub-agent still running, read from those calls' arguments) and the
 * scratchpad's toggle; beside the chat, the scratchpad side panel, where the person reads and edits the notes the
 * agents share (same key replaces, empty deletes; the agents see the change from their next round).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { skald } from '../../bridge/skald';
import { latestTodos, todosAfter, type Todo, type TodosRead } from '../../lib/latest-todos';
import { chat } from '../../stores/chat-store';
import { subAgents } from './sub-agent-store';
import './agents.css';

interface Note {
  key: string;
  value: string;
}

const MARK = { pending: '○', in_progress: '◐', completed: '●' } as const;

function NoteRow({ note, onSave }: { note: Note; onSave: (key: string, value: string) => void }) {
  const [value, setValue] = useState(note.value);
  useEffect(() => setValue(note.value), [note.value]);
  return (
    <div className="scratchpad-note" data-testid="scratchpad-note" data-key={note.key}>
      <code title={note.key}>{note.key}</code>
      <textarea
        aria-label={`Note ${note.key}`}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onBlur={() => value !== note.value && onSave(note.key, value)}
      />
      <button className="danger" onClick={() => onSave(note.key, '')} aria-label={`Delete note ${note.key}`}>
        Delete
      </button>
    </div>
  );
}

/** The session's scratchpad notes, reloaded whenever an agent (or the person, elsewhere) changes them. */
function useScratchpad(sessionId: number): {
  notes: Note[];
  save: (key: string, value: string) => void;
  error: string | null;
  setError: (e: string | null) => void;
} {
  const [notes, setNotes] = useState<Note[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const load = () =>
      void skald.chat.scratchpad({ sessionId }).then(
        (r) => setNotes(r.notes),
        () => {},
      );
    load();
    return skald.on.chat((e) => {
      if (e.type === 'scratchpad_changed' && e.session_id === sessionId) load();
    });
  }, [sessionId]);
  const save = (key: string, value: string) => {
    setError(null);
    skald.chat.setScratchpadNote({ sessionId, key, value }).then(
      (r) => setNotes(r.notes),
      (e: Error) => setError(e.message),
    );
  };
  return { notes, save, error, setError };
}

/** Under the chat: the live checklists, and the button that opens the scratchpad beside the chat. */
export function SessionNotes({
  sessionId,
  padOpen,
  onTogglePad,
}: {
  sessionId: number;
  padOpen: boolean;
  onTogglePad: () => void;
}) {
  const messages = useStore(chat.store, (s) => s.messages);
  const children = useStore(subAgents, (s) => s.byParent);
  const { notes } = useScratchpad(sessionId);

  /** The session's own list as last read: an older page arriving reads only that page (lib/latest-todos.ts). */
  const ownRead = useRef<TodosRead | null>(null);
  const lists = useMemo(() => {
    const out: { owner: string; todos: Todo[] }[] = [];
    const own = (ownRead.current = todosAfter(ownRead.current, messages)).todos;
    if (own?.length) out.push({ owner: 'Skald', todos: own });
    for (const view of Object.values(children)) {
      if (view.chat.sessionId !== sessionId || view.status !== 'running') continue;
      const todos = latestTodos(view.chat.messages);
      if (todos?.length) out.push({ owner: `${view.stack.agent_name} (depth ${view.stack.depth})`, todos });
    }
    return out;
  }, [messages, children, sessionId]);

  return (
    <div className="session-notes" data-testid="session-notes">
      {lists.map(({ owner, todos }) => (
        <div key={owner} data-testid="todo-list">
          <div className="todo-owner">
            {owner}: {todos.filter((t) => t.status === 'completed').length}/{todos.length} done
          </div>
          <ul className="todo-list">
            {todos.map((t, i) => (
              <li key={i} className={`todo todo-${t.status}`} data-status={t.status}>
                <span className="todo-mark" aria-label={t.status.replace('_', ' ')}>
                  {MARK[t.status]}
                </span>
                <span className="todo-text">{t.content}</span>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <div className="session-notes-bar">
        <button
          onClick={onTogglePad}
          aria-expanded={padOpen}
          aria-controls="scratchpad-panel"
          data-testid="toggle-scratchpad"
        >
          Scratchpad{notes.length ? ` (${notes.length})` : ''}
        </button>
        <span className="muted small">Notes every agent of this chat reads.</span>
      </div>
    </div>
  );
}

/** Beside the chat: the scratchpad, which the person reads and edits like the agents do. */
export function ScratchpadPanel({ sessionId, onClose }: { sessionId: number; onClose: () => void }) {
  const { notes, save, error, setError } = useScratchpad(sessionId);
  const [draft, setDraft] = useState({ key: '', value: '' });
  return (
    <aside className="scratchpad-side" id="scratchpad-panel" data-testid="scratchpad-panel" aria-label="Scratchpad">
      <div className="scratchpad-head">
        <strong>Scratchpad</strong>
        <button onClick={onClose} aria-label="Close the scratchpad" data-testid="close-scratchpad">
          Close
        </button>
        <span className="muted small">
          Shared by every agent of this chat (and its background tasks); the same key replaces, the last writer wins.
        </span>
      </div>
      <div className="scratchpad-panel">
        {notes.length === 0 && (
          <div className="scratchpad-empty">No notes yet. Agents write here with update_scratchpad; you can too.</div>
        )}
        {notes.map((n) => (
          <NoteRow key={n.key} note={n} onSave={save} />
        ))}
        <form
          className="scratchpad-note scratchpad-new"
          onSubmit={(e) => {
            e.preventDefault();
            if (!draft.key.trim()) return setError('A note needs a key.');
            save(draft.key.trim(), draft.value);
            setDraft({ key: '', value: '' });
          }}
        >
          <input
            placeholder="key"
            aria-label="New note key"
            value={draft.key}
            onChange={(e) => setDraft({ ...draft, key: e.target.value })}
          />
          <textarea
            placeholder="note"
            aria-label="New note"
            value={draft.value}
            onChange={(e) => setDraft({ ...draft, value: e.target.value })}
          />
          <button type="submit">Add</button>
        </form>
        {error && <div className="error small">{error}</div>}
      </div>
    </aside>
  );
}

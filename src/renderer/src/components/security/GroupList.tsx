/**
 * The permission groups (docs/ui.md): pick one to see its rules; create, rename, duplicate and delete (never
 * Default, which every other group falls back to). Names are what a person types; ids are derived from them.
 */
import { useEffect, useState } from 'react';
import { skald } from '../../bridge/skald';
import { useStore } from 'zustand';
import {
  createGroup,
  deleteGroup,
  duplicateGroup,
  renameGroup,
  securityStore,
  selectGroup,
} from '../../stores/security-store';

type Mode = { kind: 'create' } | { kind: 'rename'; id: string } | { kind: 'duplicate'; id: string } | null;

export function GroupList() {
  const groups = useStore(securityStore, (s) => s.groups);
  const groupId = useStore(securityStore, (s) => s.groupId);
  const [mode, setMode] = useState<Mode>(null);
  const [name, setName] = useState('');
  const [newSessionGroup, setNewSessionGroup] = useState('default');
  useEffect(
    () =>
      void skald.app.getSettings({}).then(
        (r) => setNewSessionGroup(r.settings.newSessionGroup),
        () => {},
      ),
    [groups],
  );
  const useForNew = (id: string) =>
    skald.app.setSettings({ newSessionGroup: id }).then(
      (r) => setNewSessionGroup(r.settings.newSessionGroup),
      (e: Error) => securityStore.setState({ error: e.message }),
    );
  const current = groups.find((g) => g.id === groupId);
  const open = (m: Mode, initial = '') => {
    setMode(m);
    setName(initial);
  };
  const submit = async () => {
    if (!mode || !name.trim()) return;
    const ok =
      mode.kind === 'create'
        ? await createGroup(name)
        : mode.kind === 'rename'
          ? await renameGroup(mode.id, name)
          : await duplicateGroup(mode.id, name);
    if (ok) setMode(null);
  };

  return (
    <nav className="group-list" aria-label="Permission groups">
      <div className="group-list-head">
        <h2>Groups</h2>
        <button
          className="icon"
          data-testid="new-group"
          aria-label="New group"
          onClick={() => open({ kind: 'create' })}
        >
          ＋
        </button>
      </div>
      <ul>
        {groups.map((g) => (
          <li key={g.id}>
            <button
              className={`group-item ${g.id === groupId ? 'is-active' : ''}`}
              aria-current={g.id === groupId ? 'true' : undefined}
              data-testid="group-item"
              data-group={g.id}
              onClick={() => void selectGroup(g.id)}
            >
              <span className="group-name">{g.name}</span>
              {g.id === newSessionGroup && (
                <span className="tag" title="New sessions start with this group">
                  new sessions
                </span>
              )}
              <span className="muted small">{g.rule_count}</span>
            </button>
          </li>
        ))}
      </ul>
      {mode && (
        <form
          className="group-form"
          onSubmit={(e) => (e.preventDefault(), void submit())}
          onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), setMode(null))}
        >
          <label className="field">
            <span className="field-label">
              {mode.kind === 'create' ? 'New group name' : mode.kind === 'rename' ? 'Rename to' : 'Name of the copy'}
            </span>
            <input autoFocus data-testid="group-name" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <div className="row-actions">
            <button type="button" onClick={() => setMode(null)}>
              Cancel
            </button>
            <button type="submit" className="primary" data-testid="save-group">
              {mode.kind === 'create' ? 'Create' : mode.kind === 'rename' ? 'Rename' : 'Duplicate'}
            </button>
          </div>
        </form>
      )}
      {current && !mode && (
        <div className="group-actions">
          {current.id !== newSessionGroup && (
            <button
              data-testid="use-for-new"
              title="New sessions start with this group"
              onClick={() => void useForNew(current.id)}
            >
              Use for new sessions
            </button>
          )}
          <button
            disabled={current.is_default}
            title={current.is_default ? 'Default keeps its name' : undefined}
            onClick={() => open({ kind: 'rename', id: current.id }, current.name)}
          >
            Rename
          </button>
          <button
            data-testid="duplicate-group"
            onClick={() => open({ kind: 'duplicate', id: current.id }, `${current.name} copy`)}
          >
            Duplicate
          </button>
          <button
            className="danger"
            data-testid="delete-group"
            disabled={current.is_default}
            title={current.is_default ? 'Every group falls back to Default; it cannot be deleted' : undefined}
            onClick={() => void deleteGroup(current.id)}
          >
            Delete
          </button>
        </div>
      )}
    </nav>
  );
}

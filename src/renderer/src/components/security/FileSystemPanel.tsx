/**
 * The File System panel (docs/ui.md): one row per path with read only / read and write / ask / deny, deeper paths
 * first, then the default row. Each row is nothing but ordinary rules of the group (file-system-rows.ts), written
 * through the same core calls as the rule list; a refusal keeps the row as it was and shows the core's message.
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { ruleLabel } from '../../../../shared/contract/approval';
import { securityStore, setFsLevel } from '../../stores/security-store';
import { FS_LEVEL_LABELS, fsRows, normalizeRowPath, type FsLevel, type FsRow } from './file-system-rows';

const LEVELS: FsLevel[] = ['read', 'write', 'ask', 'deny'];

export function FileSystemPanel() {
  const rules = useStore(securityStore, (s) => s.rules);
  const rows = fsRows(rules);
  const [newPath, setNewPath] = useState('');
  const [newLevel, setNewLevel] = useState<FsLevel>('read');
  const [error, setError] = useState<{ path: string | null | 'new'; message: string } | null>(null);

  const set = async (row: FsRow, level: FsLevel | 'unset') => {
    const message = await setFsLevel(row, level);
    setError(message ? { path: row.path, message } : null);
  };
  const add = async () => {
    const typed = newPath;
    const path = normalizeRowPath(typed);
    if (!path) return;
    const message = await setFsLevel(
      { path, rules: rows.find((row) => row.path === path)?.rules ?? [] },
      newLevel,
      path,
    );
    setError(message ? { path: 'new', message } : null);
    // Only clear what was added: the person may already be typing the next path.
    if (!message) setNewPath((current) => (current === typed ? '' : current));
  };

  return (
    <section className="sec-card" aria-labelledby="fs-title">
      <header className="sec-card-head">
        <h3 id="fs-title">File system</h3>
        <span className="muted small">
          What the file tools may do where, written as ordinary rules of this group. Deny beats ask beats allow: a
          deeper path can narrow a parent (deny inside a writable folder), never widen it.
        </span>
      </header>
      <table className="fs-table">
        <thead>
          <tr>
            <th scope="col">Path</th>
            <th scope="col">Access</th>
            <th scope="col">
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.path ?? '(default)'} data-testid="fs-row" data-path={row.path ?? ''} data-level={row.level}>
              <td>
                {row.path === null ? (
                  <span>
                    Any other path{' '}
                    <span className="muted small">
                      (not set: the fallback asks; reads in the working directory run)
                    </span>
                  </span>
                ) : (
                  <span className="mono">{row.path}</span>
                )}
                {error && error.path === row.path && (
                  <div className="field-error" role="alert">
                    {error.message}
                  </div>
                )}
              </td>
              <td>
                {row.level === 'custom' ? (
                  <span className="muted small">
                    Custom: {row.rules.map(ruleLabel).join(', ')}. Edit it in Rules, or pick a level:
                  </span>
                ) : null}
                <div className="segmented" role="radiogroup" aria-label={`Access for ${row.path ?? 'any other path'}`}>
                  {(row.path === null ? (['unset', 'read', 'write'] as const) : LEVELS).map((level) => (
                    <label
                      key={level}
                      className={`seg seg-${level === 'write' ? 'allow' : level === 'read' ? 'allow' : level === 'ask' ? 'require' : level === 'deny' ? 'deny' : 'unset'} ${row.level === level ? 'is-on' : ''}`}
                    >
                      <input
                        type="radio"
                        name={`fs-${row.path ?? 'default'}`}
                        data-testid={`fs-level-${level}`}
                        checked={row.level === level}
                        onChange={() => void set(row, level)}
                      />
                      {level === 'unset'
                        ? 'Not set'
                        : row.path === null && level === 'read'
                          ? 'Read everywhere'
                          : row.path === null && level === 'write'
                            ? 'Read and write everywhere'
                            : FS_LEVEL_LABELS[level]}
                    </label>
                  ))}
                </div>
              </td>
              <td>
                {row.path !== null && (
                  <button
                    className="ghost danger"
                    aria-label={`Remove the row for ${row.path}`}
                    onClick={() => void set(row, 'unset')}
                  >
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="fs-add" onSubmit={(e) => (e.preventDefault(), void add())}>
        <label className="field">
          <span className="field-label">Add a path</span>
          <input
            data-testid="fs-new-path"
            className="mono"
            placeholder="src/  ·  docs/README.md  ·  /tmp/*"
            value={newPath}
            onChange={(e) => setNewPath(e.target.value)}
            aria-invalid={error?.path === 'new'}
          />
        </label>
        <label className="field">
          <span className="field-label">Access</span>
          <select data-testid="fs-new-level" value={newLevel} onChange={(e) => setNewLevel(e.target.value as FsLevel)}>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {FS_LEVEL_LABELS[l]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" data-testid="fs-add">
          Add
        </button>
        {error?.path === 'new' && (
          <div className="field-error" role="alert" data-testid="fs-error">
            {error.message}
          </div>
        )}
      </form>
      <p className="muted small">
        Locked guards still apply: secrets/ folders, the app&apos;s data folder and git hooks stay protected whatever a
        row says.
      </p>
    </section>
  );
}

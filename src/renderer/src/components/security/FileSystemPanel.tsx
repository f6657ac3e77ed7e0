/**
 * The File System panel (docs/ui.md): one row per path with read only / read and write / ask / deny, deeper paths
 * first, then the default row. Each row is nothing but ordinary rules of the group (file-system-rows.ts), written
 * through the same core calls as the rule list; a refusal keeps the row as it was and shows the core's message.
 * Under each path, what the gate would do there now in the open session's folder (`approval:explain`, the very
 * decision a call gets, guards and run context included), so a row never claims what the gate does not do.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { ACTION_WORDS, ruleLabel, type Decision } from '../../../../shared/contract/approval';
import { skald } from '../../bridge/skald';
import { securityStore, setFsLevel } from '../../stores/security-store';
import { FS_LEVEL_LABELS, fsRows, normalizeRowPath, type FsLevel, type FsRow } from './file-system-rows';
import { relativeHint, type OpenFolder } from './open-folder';

const LEVELS: FsLevel[] = ['read', 'write', 'ask', 'deny'];

/** What the gate would decide for reading and for writing a row's path. */
interface Effect {
  read: Decision;
  write: Decision;
}

/** The path a row's pattern names (`notes/*` → `notes`, `priv*` → `priv`); null for one that names no single path. */
const probePath = (pattern: string): string | null => {
  const p = pattern.replace(/\/\*$/, '').replace(/\*$/, '');
  return p === '' || p === '/' ? null : p;
};

/** The gate's decisions for every row's path in the open session (none open: a call of no session). */
function useEffects(paths: readonly string[], open: OpenFolder, rulesVersion: unknown): Map<string, Effect> {
  const [effects, setEffects] = useState(new Map<string, Effect>());
  const key = paths.join('\0');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `paths`; the rules' identity for a reload
  useEffect(() => {
    let live = true;
    const session = open.sessionId !== null ? { sessionId: open.sessionId } : {};
    // The core asks the gate with its file tools, chosen by what they are (a read, an edit), never by name here.
    const ask = (path: string) =>
      skald.approval.explainFileAccess({ path, ...session }).then((effect) => [path, effect] as const);
    Promise.all(paths.map(ask)).then(
      (pairs) => live && setEffects(new Map(pairs)),
      () => live && setEffects(new Map()),
    );
    return () => {
      live = false;
    };
  }, [key, open.sessionId, open.workingDir, rulesVersion]);
  return effects;
}

function EffectLine({ effect, label }: { effect: Effect | undefined; label: string }) {
  if (!effect) return null;
  const one = (what: string, d: Decision) => (
    <span className="fs-effect-one" title={d.why.text}>
      {what} <span className={`badge badge-${d.action}`}>{ACTION_WORDS[d.action]}</span>
    </span>
  );
  return (
    <div
      className="fs-effect muted small"
      data-testid="fs-effect"
      data-read={effect.read.action}
      data-write={effect.write.action}
    >
      {label}: {one('reading', effect.read)} {one('writing', effect.write)}
    </div>
  );
}

export function FileSystemPanel({ open }: { open: OpenFolder }) {
  const rules = useStore(securityStore, (s) => s.rules);
  const rows = fsRows(rules);
  const probes = rows.map((r) => (r.path === null ? null : probePath(r.path)));
  const effects = useEffects(
    probes.filter((p): p is string => p !== null),
    open,
    rules,
  );
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
        <h2 id="fs-title">File system</h2>
        <span className="muted small">
          What the file tools may do where, written as ordinary rules of this group. Deny beats ask beats allow: a
          deeper path can narrow a parent (deny inside a writable folder), never widen it. Under each path: what the
          gate does there now, guards included.
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
          {rows.map((row, i) => (
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
                {probes[i] && (
                  <EffectLine
                    effect={effects.get(probes[i]!)}
                    label={open.sessionId !== null ? 'In the open session now' : 'For a call of no session now'}
                  />
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
        <span className="muted small fs-hint" data-testid="fs-path-hint">
          {relativeHint(open)}
        </span>
      </form>
      <p className="muted small">
        Locked guards still apply: secrets/ folders, the app&apos;s data folder and git hooks stay protected whatever a
        row says.
      </p>
    </section>
  );
}

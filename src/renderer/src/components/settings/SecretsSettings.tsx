/**
 * Settings → Secrets (docs/plugins.md): the keys of stored secrets (never a value), a form to set one, and a
 * delete per key. A value is sent once, encrypted by the core, and never shown again. Provider keys and plugin
 * fields are managed on their own pages and are not listed here.
 */
import { useEffect, useState } from 'react';
import { skald } from '../../bridge/skald';

export function SecretsSettings() {
  const [keys, setKeys] = useState<string[]>([]);
  const [draft, setDraft] = useState({ key: '', value: '' });
  const [error, setError] = useState<string | null>(null);
  const reload = () => skald.secrets.list({}).then((r) => setKeys(r.keys));
  useEffect(() => void reload().catch(() => undefined), []);
  const act = (work: () => Promise<unknown>, after?: () => void) => {
    setError(null);
    work().then(
      () => {
        after?.();
        return reload();
      },
      (e: Error) => setError(e.message),
    );
  };

  return (
    <section className="settings-section" data-testid="secrets-settings" aria-labelledby="secrets-title">
      <header className="section-head">
        <h2 id="secrets-title">Secrets</h2>
        <span className="muted small">
          Encrypted on this machine. The agent can use a secret only where a tool or plugin setting names it; values are
          never shown again.
        </span>
      </header>
      <table className="grid">
        <tbody>
          {keys.length === 0 && (
            <tr>
              <td className="muted">No secrets stored.</td>
            </tr>
          )}
          {keys.map((k) => (
            <tr key={k}>
              <td>
                <code>{k}</code>
              </td>
              <td className="muted">set</td>
              <td>
                <button
                  className="ghost danger"
                  aria-label={`Delete secret ${k}`}
                  onClick={() => act(() => skald.secrets.delete({ key: k }))}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          act(
            () => skald.secrets.set(draft),
            () => setDraft({ key: '', value: '' }),
          );
        }}
      >
        <input
          aria-label="Secret key"
          placeholder="Key, e.g. github.token"
          value={draft.key}
          onChange={(e) => setDraft({ ...draft, key: e.target.value })}
        />
        <input
          aria-label="Secret value"
          placeholder="Value"
          type="password"
          autoComplete="off"
          value={draft.value}
          onChange={(e) => setDraft({ ...draft, value: e.target.value })}
        />
        <button className="primary" type="submit">
          Save secret
        </button>
      </form>
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}

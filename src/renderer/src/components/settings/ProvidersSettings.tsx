/**
 * Settings → Providers (docs/ui.md): each provider with its kind in words, address and key state; test
 * connection (a real request), edit name and address, set or replace the key (never shown), remove the key,
 * delete (its models go too). Adding opens the kind-fitted form.
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import type { ProviderView } from '../../../../shared/contract/providers';
import { skald } from '../../bridge/skald';
import { discoverLocal, settingsStore, settingsWrite, testProvider } from '../../stores/settings-store';
import { ProbeLine } from './ProbeLine';
import { ProviderForm } from './ProviderForm';
import { kindInfo, kindLabel } from './provider-kinds';

export function ProvidersSettings() {
  const { providers, tests, local } = useStore(settingsStore);
  const [adding, setAdding] = useState(false);
  return (
    <section
      className="settings-section"
      id="settings-providers"
      aria-labelledby="providers-title"
      data-testid="providers-settings"
    >
      <header className="section-head">
        <h2 id="providers-title">Providers</h2>
        <span className="muted small">
          Where the models run. Keys are stored encrypted on this computer and never shown again.
        </span>
        {!adding && (
          <button
            className="primary"
            data-testid="add-provider"
            onClick={() => (setAdding(true), void discoverLocal())}
          >
            Add provider
          </button>
        )}
      </header>
      {adding && (
        <ProviderForm
          local={local ?? []}
          onCancel={() => setAdding(false)}
          onCreated={(p) => (setAdding(false), void settingsWrite(async () => {}).then(() => testProvider(p.id)))}
        />
      )}
      <ul className="card-list">
        {providers.map((p) => (
          <ProviderRow key={p.id} provider={p} test={tests[p.id]} />
        ))}
        {providers.length === 0 && !adding && (
          <li className="muted empty">No provider yet. Add one to start chatting.</li>
        )}
      </ul>
    </section>
  );
}

function ProviderRow({
  provider: p,
  test,
}: {
  provider: ProviderView;
  test: Parameters<typeof ProbeLine>[0]['result'] | undefined;
}) {
  const [mode, setMode] = useState<'view' | 'edit' | 'key'>('view');
  const [name, setName] = useState(p.name);
  const [baseUrl, setBaseUrl] = useState(p.baseUrl);
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const info = kindInfo(p.kind);
  const run = async (work: () => Promise<unknown>) => {
    const message = await settingsWrite(work);
    setError(message);
    if (!message) {
      setMode('view');
      setKey('');
    }
  };
  return (
    <li className="card-row" data-testid="provider-row" data-provider={p.name}>
      <div className="card-row-main">
        <div className="card-title">
          <strong>{p.name}</strong>
          <span className="muted small">{kindLabel(p.kind)}</span>
          {!p.enabled && <span className="tag">off</span>}
        </div>
        <div className="mono small muted">{p.baseUrl}</div>
        <div className="small">
          {info.key === 'none' ? (
            <span className="muted">No key needed</span>
          ) : p.hasKey ? (
            <span className="ok-text" data-testid="key-state">
              Key set
            </span>
          ) : (
            <span className="warn" data-testid="key-state">
              No key
            </span>
          )}
        </div>
        {test && <ProbeLine result={test} />}
        {mode === 'edit' && (
          <form
            className="inline-form"
            onSubmit={(e) => (
              e.preventDefault(),
              void run(() => skald.providers.update({ id: p.id, name, ...(baseUrl !== p.baseUrl ? { baseUrl } : {}) }))
            )}
          >
            <label className="field">
              <span className="field-label">Name</span>
              <input value={name} onChange={(e) => setName(e.target.value)} />
            </label>
            <label className="field">
              <span className="field-label">Address</span>
              <input className="mono" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} />
            </label>
            <div className="row-actions">
              <button type="button" onClick={() => setMode('view')}>
                Cancel
              </button>
              <button type="submit" className="primary">
                Save
              </button>
            </div>
          </form>
        )}
        {mode === 'key' && (
          <form
            className="inline-form"
            onSubmit={(e) => (e.preventDefault(), void run(() => skald.providers.setKey({ id: p.id, apiKey: key })))}
          >
            <label className="field">
              <span className="field-label">{p.hasKey ? 'New key (replaces the stored one)' : 'API key'}</span>
              <input
                data-testid="replace-key"
                type="password"
                autoComplete="off"
                placeholder={info.keyHint ?? 'Paste the key'}
                value={key}
                onChange={(e) => setKey(e.target.value)}
              />
            </label>
            <div className="row-actions">
              {p.hasKey && (
                <button
                  type="button"
                  className="danger"
                  onClick={() => void run(() => skald.providers.setKey({ id: p.id, apiKey: null }))}
                >
                  Remove key
                </button>
              )}
              <button type="button" onClick={() => setMode('view')}>
                Cancel
              </button>
              <button type="submit" className="primary" data-testid="save-key" disabled={!key}>
                Save key
              </button>
            </div>
          </form>
        )}
        {error && (
          <div className="field-error" role="alert">
            {error}
          </div>
        )}
      </div>
      {mode === 'view' && (
        <div className="card-row-actions">
          <button data-testid="test-provider" onClick={() => void testProvider(p.id)} disabled={test === 'testing'}>
            Test connection
          </button>
          {info.key !== 'none' && (
            <button className="ghost" data-testid="set-key" onClick={() => setMode('key')}>
              {p.hasKey ? 'Replace key' : 'Set key'}
            </button>
          )}
          <button className="ghost" onClick={() => (setName(p.name), setBaseUrl(p.baseUrl), setMode('edit'))}>
            Edit
          </button>
          <button
            className="ghost danger"
            aria-label={`Delete provider ${p.name}`}
            onClick={() => void run(() => skald.providers.delete({ id: p.id }))}
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}

/**
 * Settings: LLM providers (the API key is write-only; only "key set" is shown) and their models in priority
 * order. Everything goes through the providers/models bridge calls, which validate and explain bad input.
 */
import { useEffect, useState } from 'react';
import { PROVIDER_KINDS, type ModelView, type ProviderKind, type ProviderView } from '../../../shared/contract/providers';
import { skald } from '../bridge/skald';
import { McpSettings } from './settings/McpSettings';
import { PluginsSettings } from './settings/PluginsSettings';
import { SecretsSettings } from './settings/SecretsSettings';

export function SettingsPanel({ onClose }: { onClose: () => void }) {
  const [providers, setProviders] = useState<ProviderView[]>([]);
  const [models, setModels] = useState<ModelView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState({ kind: 'open_ai' as ProviderKind, name: '', baseUrl: '', apiKey: '' });
  const [modelDraft, setModelDraft] = useState({ providerId: 0, modelId: '', displayName: '' });

  const reload = async () => {
    const [p, m] = await Promise.all([skald.providers.list({}), skald.models.list({})]);
    setProviders(p.providers);
    setModels(m.models);
    setModelDraft((d) => ({ ...d, providerId: d.providerId || p.providers[0]?.id || 0 }));
  };
  const run = (work: () => Promise<unknown>, after?: () => void) => {
    setError(null);
    work().then(() => {
      after?.();
      return reload();
    }, (e: Error) => setError(e.message));
  };
  useEffect(() => void reload().catch((e: Error) => setError(e.message)), []);

  return (
    <div className="settings" data-testid="settings">
      <div className="settings-head">
        <h2>Settings</h2>
        <button onClick={onClose}>Close</button>
      </div>
      {error && <div className="error">{error}</div>}
      <h3>Providers</h3>
      <table className="grid">
        <tbody>
          {providers.map((p) => (
            <tr key={p.id}>
              <td>{p.name}</td>
              <td className="muted">{p.kind}</td>
              <td className="muted">{p.baseUrl}</td>
              <td>{p.hasKey ? 'key set' : <span className="warn">no key</span>}</td>
              <td><button className="danger" onClick={() => run(() => skald.providers.delete({ id: p.id }))}>Remove</button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="settings-form" onSubmit={(e) => { e.preventDefault(); run(() => skald.providers.create({ kind: draft.kind, name: draft.name, ...(draft.baseUrl ? { baseUrl: draft.baseUrl } : {}), ...(draft.apiKey ? { apiKey: draft.apiKey } : {}) }), () => setDraft({ kind: draft.kind, name: '', baseUrl: '', apiKey: '' })); }}>
        <select value={draft.kind} onChange={(e) => setDraft({ ...draft, kind: e.target.value as ProviderKind })}>
          {PROVIDER_KINDS.map((k) => <option key={k} value={k}>{k}</option>)}
        </select>
        <input placeholder="Name" value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
        <input placeholder="Base URL (optional)" value={draft.baseUrl} onChange={(e) => setDraft({ ...draft, baseUrl: e.target.value })} />
        <input placeholder="API key" type="password" value={draft.apiKey} onChange={(e) => setDraft({ ...draft, apiKey: e.target.value })} />
        <button className="primary" type="submit">Add provider</button>
      </form>
      <h3>Models (tried in this order)</h3>
      <table className="grid">
        <tbody>
          {models.map((m, i) => (
            <tr key={m.id}>
              <td>{i + 1}.</td>
              <td>{m.displayName || m.modelId}</td>
              <td className="muted">{m.modelId} · {m.providerName}</td>
              <td className={m.health === 'ok' ? 'muted' : 'warn'}>{m.health}</td>
              <td>
                <button disabled={i === 0} onClick={() => run(() => { const ids = models.map((x) => x.id); [ids[i - 1], ids[i]] = [ids[i]!, ids[i - 1]!]; return skald.models.reorder({ ids }); })}>↑</button>
                <button className="danger" onClick={() => run(() => skald.models.delete({ id: m.id }))}>Remove</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="settings-form" onSubmit={(e) => { e.preventDefault(); run(() => skald.models.create({ providerId: modelDraft.providerId, modelId: modelDraft.modelId, ...(modelDraft.displayName ? { displayName: modelDraft.displayName } : {}) }), () => setModelDraft({ ...modelDraft, modelId: '', displayName: '' })); }}>
        <select value={modelDraft.providerId} onChange={(e) => setModelDraft({ ...modelDraft, providerId: Number(e.target.value) })}>
          {providers.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
        </select>
        <input placeholder="Model id (e.g. gpt-4.1)" value={modelDraft.modelId} onChange={(e) => setModelDraft({ ...modelDraft, modelId: e.target.value })} />
        <input placeholder="Display name (optional)" value={modelDraft.displayName} onChange={(e) => setModelDraft({ ...modelDraft, displayName: e.target.value })} />
        <button className="primary" type="submit" disabled={!providers.length}>Add model</button>
      </form>
      <McpSettings />
      <PluginsSettings />
      <SecretsSettings />
    </div>
  );
}

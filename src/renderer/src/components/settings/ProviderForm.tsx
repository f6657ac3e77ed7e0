/**
 * Adding a provider (docs/ui.md), in Settings and in the first-run guide: the kind as readable choices (local
 * servers found on this computer first), then only the fields that kind needs; "Test connection" makes one real
 * request with what was typed before anything is saved. The key field is a password field and is cleared after
 * saving; the core stores it encrypted and never sends it back.
 */
import { useEffect, useState } from 'react';
import type { LocalProvider, ProbeResult, ProviderKind, ProviderView } from '../../../../shared/contract/providers';
import { skald } from '../../bridge/skald';
import {
  createRequest,
  draftForKind,
  FIRST_KIND,
  kindInfo,
  KIND_ORDER,
  providerName,
  type ProviderDraft,
} from './provider-kinds';
import { ProbeLine } from './ProbeLine';

export interface ProviderFormProps {
  local: readonly LocalProvider[];
  onCreated: (provider: ProviderView, probe: ProbeResult | null) => void;
  onCancel?: () => void;
  /** The first-run guide asks for the key in its own step. */
  submitLabel?: string;
}

export function ProviderForm({ local, onCreated, onCancel, submitLabel = 'Add provider' }: ProviderFormProps) {
  const [draft, setDraft] = useState<ProviderDraft>(() =>
    local[0] ? { ...draftForKind(local[0].kind), baseUrl: local[0].baseUrl } : draftForKind(FIRST_KIND),
  );
  const [probe, setProbe] = useState<ProbeResult | 'testing' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (local[0] && draft.kind === FIRST_KIND && draft.apiKey === '')
      setDraft({ ...draftForKind(local[0].kind), baseUrl: local[0].baseUrl });
  }, [local]);
  const info = kindInfo(draft.kind);
  const pick = (kind: ProviderKind, found?: LocalProvider) => {
    setDraft({ ...draftForKind(kind), ...(found ? { baseUrl: found.baseUrl } : {}) });
    setProbe(null);
    setError(null);
  };
  const request = createRequest(draft);
  const test = async () => {
    setProbe('testing');
    setProbe(
      await skald.providers
        .probe({
          kind: request.kind,
          ...(request.baseUrl ? { baseUrl: request.baseUrl } : {}),
          ...(request.apiKey ? { apiKey: request.apiKey } : {}),
        })
        .catch((e: Error): ProbeResult => ({ ok: false, status: null, message: e.message, latencyMs: 0 })),
    );
  };
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const { provider } = await skald.providers.create(request);
      setDraft((d) => ({ ...d, apiKey: '' }));
      onCreated(provider, probe && probe !== 'testing' ? probe : null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const foundKinds = new Set(local.map((l) => l.kind));

  return (
    <form
      className="provider-form"
      data-testid="provider-form"
      aria-label="Add a provider"
      onSubmit={(e) => (e.preventDefault(), void save())}
    >
      <fieldset className="kind-grid">
        <legend className="field-label">Provider</legend>
        {local.map((l) => (
          <label key={`local-${l.kind}`} className={`kind-card is-found ${draft.kind === l.kind ? 'is-on' : ''}`}>
            <input
              type="radio"
              name="provider-kind"
              data-testid={`kind-${l.kind}`}
              checked={draft.kind === l.kind}
              onChange={() => pick(l.kind, l)}
            />
            <strong>{kindInfo(l.kind).label}</strong>
            <span className="small ok-text">
              Found on this computer · {l.models.length} model{l.models.length === 1 ? '' : 's'}
            </span>
          </label>
        ))}
        {KIND_ORDER.filter((k) => !foundKinds.has(k)).map((kind) => (
          <label key={kind} className={`kind-card ${draft.kind === kind ? 'is-on' : ''}`}>
            <input
              type="radio"
              name="provider-kind"
              data-testid={`kind-${kind}`}
              checked={draft.kind === kind}
              onChange={() => pick(kind)}
            />
            <strong>{kindInfo(kind).label}</strong>
            <span className="small muted">{kindInfo(kind).hint}</span>
          </label>
        ))}
      </fieldset>
      <div className="form-grid">
        <label className="field">
          <span className="field-label">Name</span>
          {/* Empty means the name it gets (provider-kinds.ts providerName): its kind, or its host. */}
          <input
            data-testid="provider-name"
            placeholder={providerName({ ...draft, name: '' })}
            value={draft.name === info.label ? '' : draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
        </label>
        {info.baseUrl !== 'fixed' && (
          <label className="field">
            <span className="field-label">Address{info.baseUrl === 'local' ? ' (on this computer)' : ''}</span>
            <input
              data-testid="provider-url"
              className="mono"
              placeholder="http://localhost:8000/v1"
              value={draft.baseUrl}
              onChange={(e) => (setDraft({ ...draft, baseUrl: e.target.value }), setProbe(null))}
            />
          </label>
        )}
        {info.key !== 'none' && (
          <label className="field">
            <span className="field-label">API key{info.key === 'optional' ? ' (if the server wants one)' : ''}</span>
            <input
              data-testid="provider-key"
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder={info.keyHint ?? 'Paste the key'}
              value={draft.apiKey}
              onChange={(e) => (setDraft({ ...draft, apiKey: e.target.value }), setProbe(null))}
            />
            {info.keyHint && (
              <span className="muted small">{info.keyHint}. Stored encrypted on this computer; never shown again.</span>
            )}
          </label>
        )}
      </div>
      {info.baseUrl === 'fixed' && (
        <details className="advanced">
          <summary className="small">Advanced: address</summary>
          <input
            aria-label="Address"
            className="mono"
            value={draft.baseUrl}
            onChange={(e) => (setDraft({ ...draft, baseUrl: e.target.value }), setProbe(null))}
          />
        </details>
      )}
      {probe && <ProbeLine result={probe} />}
      {error && (
        <div className="field-error" role="alert" data-testid="provider-error">
          {error}
        </div>
      )}
      <div className="row-actions">
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button type="button" data-testid="provider-probe" onClick={() => void test()} disabled={probe === 'testing'}>
          Test connection
        </button>
        <button
          type="submit"
          className="primary"
          data-testid="provider-save"
          disabled={busy || (info.key === 'required' && !draft.apiKey)}
        >
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

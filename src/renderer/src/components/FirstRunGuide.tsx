/**
 * The first run (docs/ui.md): when no model is set up yet, four short steps instead of an empty chat — a provider
 * (local servers found on this computer offered first), its key (tested with one real request before saving),
 * a model (from what the provider lists, with the window the list gives it, model-window.ts), the working
 * directory — then a suggested first message. When the command sandbox cannot start here, it says so first, with
 * how to fix it (SandboxNotice).
 * Everything is written through the same bridge calls Settings uses; leaving half-way keeps what was saved.
 */
import { useEffect, useState } from 'react';
import type { LocalProvider, ProbeResult, ProviderKind, ProviderView } from '../../../shared/contract/providers';
import { skald } from '../bridge/skald';
import { modelsChanged, refreshSessions, sessionsStore } from '../stores/sessions-store';
import { ProbeLine } from './settings/ProbeLine';
import { SandboxNotice } from './settings/SandboxSettings';
import {
  createRequest,
  draftForKind,
  FIRST_KIND,
  kindInfo,
  KIND_ORDER,
  providerName,
  type ProviderDraft,
} from './settings/provider-kinds';
import { listedWindow, useWindowField, windowLabel, windowRequest } from './settings/model-window';
import './settings/settings.css';

const STEPS = ['Provider', 'Key', 'Model', 'Folder'] as const;
export const SUGGESTIONS = [
  'What is in this folder? Give me a short tour.',
  'Find the TODO comments here and list them by file.',
  'Explain what you can do and what you will ask me before doing.',
];

export function FirstRunGuide({ onDone, onEngaged }: { onDone: () => void; onEngaged: () => void }) {
  const [step, setStep] = useState(0);
  const [local, setLocal] = useState<LocalProvider[] | null>(null);
  const [draft, setDraft] = useState<ProviderDraft>(draftForKind(FIRST_KIND));
  const [probe, setProbe] = useState<ProbeResult | 'testing' | null>(null);
  const [provider, setProvider] = useState<ProviderView | null>(null);
  const [modelId, setModelId] = useState('');
  const [folder, setFolder] = useState('');
  const [workspaceDir, setWorkspaceDir] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [finished, setFinished] = useState(false);
  useEffect(() => {
    void skald.providers.discoverLocal({}).then(
      ({ found }) => {
        setLocal(found);
        if (found[0]) setDraft({ ...draftForKind(found[0].kind), baseUrl: found[0].baseUrl });
      },
      () => setLocal([]),
    );
    void skald.app.info({}).then(
      (i) => (setWorkspaceDir(i.workspaceDir), setFolder((f) => f || i.workspaceDir)),
      () => {},
    );
  }, []);
  const info = kindInfo(draft.kind);
  const found = local?.find((l) => l.kind === draft.kind && l.baseUrl === draft.baseUrl);
  const listed = probe && probe !== 'testing' && probe.ok ? probe.models : (found?.models ?? []);
  const windows = probe && probe !== 'testing' && probe.ok ? probe.contextWindows : found?.contextWindows;
  const windowInput = useWindowField(listedWindow(windows, modelId));
  const fail = (e: unknown) => setError((e as Error).message);

  const pick = (kind: ProviderKind, at?: LocalProvider) => (
    setDraft({ ...draftForKind(kind), ...(at ? { baseUrl: at.baseUrl } : {}) }), setProbe(null), setError(null)
  );
  const test = async (): Promise<ProbeResult> => {
    setProbe('testing');
    const r = createRequest(draft);
    const result = await skald.providers
      .probe({ kind: r.kind, ...(r.baseUrl ? { baseUrl: r.baseUrl } : {}), ...(r.apiKey ? { apiKey: r.apiKey } : {}) })
      .catch((e: Error): ProbeResult => ({ ok: false, status: null, message: e.message, latencyMs: 0 }));
    setProbe(result);
    return result;
  };
  /** Saves the provider (once; a later pass updates its key) and moves to the model step. */
  const saveProvider = async () => {
    setError(null);
    try {
      if (!provider) setProvider((await skald.providers.create(createRequest(draft))).provider);
      else if (draft.apiKey) await skald.providers.setKey({ id: provider.id, apiKey: draft.apiKey });
      setDraft((d) => ({ ...d, apiKey: '' }));
      if (!modelId && listed[0]) setModelId(listed[0]);
      setStep(2);
    } catch (e) {
      fail(e);
    }
  };
  const saveModel = async () => {
    if (!provider) return;
    setError(null);
    try {
      await skald.models.create({
        providerId: provider.id,
        modelId: modelId.trim(),
        ...windowRequest(windowInput.value),
      });
      modelsChanged();
      setStep(3);
    } catch (e) {
      fail(e);
    }
  };
  const finish = async () => {
    setError(null);
    try {
      const dir = folder.trim() && folder.trim() !== workspaceDir ? folder.trim() : null;
      await skald.app.setSettings({ defaultWorkingDirectory: dir });
      const sessionId = sessionsStore.getState().activeId;
      if (sessionId !== null && dir) await skald.chat.setWorkingDirectory({ sessionId, path: dir });
      await refreshSessions();
      setFinished(true);
    } catch (e) {
      fail(e);
    }
  };
  const start = async (text: string) => {
    const sessionId = sessionsStore.getState().activeId;
    onDone(); // the chat opens the session; the message is persisted before its echo, so history has it either way
    if (text && sessionId !== null) await skald.chat.send({ sessionId, content: text }).catch(fail);
  };

  return (
    <section className="first-run" data-testid="first-run" aria-labelledby="first-run-title">
      <div className="first-run-card">
        <h1 id="first-run-title">{finished ? 'You are set up' : 'Welcome to Skald'}</h1>
        <SandboxNotice />
        {!finished && (
          <>
            <p className="muted">
              An AI agent that works with your files and commands, and asks you before anything risky. Four short steps
              to your first chat.
            </p>
            <ol className="steps" aria-label="Steps">
              {STEPS.map((s, i) => (
                <li
                  key={s}
                  className={i === step ? 'is-on' : i < step ? 'is-done' : ''}
                  aria-current={i === step ? 'step' : undefined}
                >
                  {i + 1}. {s}
                </li>
              ))}
            </ol>
          </>
        )}
        {!finished && step === 0 && (
          <div className="step-body">
            <h2>Where should the model run?</h2>
            {local === null && (
              <p className="muted small" role="status">
                Looking for Ollama and LM Studio on this computer…
              </p>
            )}
            <div className="kind-grid" role="radiogroup" aria-label="Provider">
              {(local ?? []).map((l) => (
                <label key={l.kind} className={`kind-card is-found ${draft.kind === l.kind ? 'is-on' : ''}`}>
                  <input
                    type="radio"
                    name="fr-kind"
                    data-testid={`fr-kind-${l.kind}`}
                    checked={draft.kind === l.kind}
                    onChange={() => pick(l.kind, l)}
                  />
                  <strong>{kindInfo(l.kind).label}</strong>
                  <span className="small ok-text">
                    Found on this computer · {l.models.length} models · no key, nothing leaves it
                  </span>
                </label>
              ))}
              {KIND_ORDER.filter((k) => !(local ?? []).some((l) => l.kind === k)).map((k) => (
                <label key={k} className={`kind-card ${draft.kind === k ? 'is-on' : ''}`}>
                  <input
                    type="radio"
                    name="fr-kind"
                    data-testid={`fr-kind-${k}`}
                    checked={draft.kind === k}
                    onChange={() => pick(k)}
                  />
                  <strong>{kindInfo(k).label}</strong>
                  <span className="small muted">{kindInfo(k).hint}</span>
                </label>
              ))}
            </div>
            {info.baseUrl !== 'fixed' && (
              <label className="field">
                <span className="field-label">Address</span>
                <input
                  data-testid="fr-url"
                  className="mono"
                  placeholder="http://localhost:8000/v1"
                  value={draft.baseUrl}
                  onChange={(e) => (setDraft({ ...draft, baseUrl: e.target.value }), setProbe(null))}
                />
              </label>
            )}
            {info.baseUrl === 'required' && (
              // The generic kind is named after its host unless the person names it (Settings lists it by name).
              <label className="field">
                <span className="field-label">Name (optional)</span>
                <input
                  data-testid="fr-name"
                  placeholder={providerName({ ...draft, name: '' })}
                  value={draft.name === info.label ? '' : draft.name}
                  onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                />
              </label>
            )}
            <div className="row-actions">
              <button
                className="primary"
                data-testid="fr-next"
                disabled={info.baseUrl === 'required' && !draft.baseUrl.trim()}
                onClick={() => (onEngaged(), setStep(1))}
              >
                Next
              </button>
            </div>
          </div>
        )}
        {!finished && step === 1 && (
          <div className="step-body">
            <h2>{info.key === 'none' ? `${info.label} needs no key` : `Your ${info.label} key`}</h2>
            {info.key !== 'none' && (
              <label className="field">
                <span className="field-label">
                  API key{info.key === 'optional' ? ' (if the server wants one)' : ''}
                </span>
                <input
                  data-testid="fr-key"
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  autoFocus
                  placeholder={info.keyHint ?? 'Paste the key'}
                  value={draft.apiKey}
                  onChange={(e) => (setDraft({ ...draft, apiKey: e.target.value }), setProbe(null))}
                />
                <span className="muted small">
                  {info.keyHint ? `${info.keyHint}. ` : ''}Stored encrypted on this computer and never shown again.
                </span>
              </label>
            )}
            {probe && <ProbeLine result={probe} />}
            <div className="row-actions">
              <button onClick={() => setStep(0)}>Back</button>
              <button data-testid="fr-test" onClick={() => void test()} disabled={probe === 'testing'}>
                Test connection
              </button>
              <button
                className="primary"
                data-testid="fr-next"
                disabled={info.key === 'required' && !draft.apiKey && !provider?.hasKey}
                onClick={() => void saveProvider()}
              >
                Next
              </button>
            </div>
          </div>
        )}
        {!finished && step === 2 && (
          <div className="step-body">
            <h2>Which model?</h2>
            {listed.length > 0 ? (
              <div className="model-choices" role="radiogroup" aria-label="Model">
                {listed.slice(0, 12).map((m) => (
                  <label key={m} className={`kind-card ${modelId === m ? 'is-on' : ''}`}>
                    <input
                      type="radio"
                      name="fr-model"
                      data-testid="fr-model-choice"
                      value={m}
                      checked={modelId === m}
                      onChange={() => setModelId(m)}
                    />
                    <span className="mono">{m}</span>
                    {listedWindow(windows, m) !== null && (
                      <span className="small muted">{windowLabel(listedWindow(windows, m)!)} context</span>
                    )}
                  </label>
                ))}
              </div>
            ) : (
              <p className="muted small">The provider did not list its models; type the id of the one you want.</p>
            )}
            <label className="field">
              <span className="field-label">Model id</span>
              <input
                data-testid="fr-model"
                className="mono"
                placeholder={`e.g. ${info.modelHint}`}
                value={modelId}
                onChange={(e) => setModelId(e.target.value)}
              />
            </label>
            <label className="field">
              <span className="field-label">Context window (tokens, optional)</span>
              <input
                data-testid="fr-window"
                type="number"
                min={1}
                step={1}
                placeholder="128000 assumed"
                value={windowInput.value}
                onChange={(e) => windowInput.onChange(e.target.value)}
              />
              <span className="muted small">
                {windowInput.fromList
                  ? "From the provider's list; lower it if the server runs the model with less. "
                  : ''}
                The longest request the model takes; longer chats are shortened to fit.
              </span>
            </label>
            <div className="row-actions">
              <button onClick={() => setStep(1)}>Back</button>
              <button
                className="primary"
                data-testid="fr-next"
                disabled={!modelId.trim()}
                onClick={() => void saveModel()}
              >
                Next
              </button>
            </div>
          </div>
        )}
        {!finished && step === 3 && (
          <div className="step-body">
            <h2>Which folder should it work in?</h2>
            <p className="muted small">
              Relative paths resolve here, and reading in it needs no approval. Writing and commands still ask unless
              you allow them.
            </p>
            <label className="field">
              <span className="field-label">Working directory</span>
              <input
                data-testid="fr-folder"
                className="mono"
                value={folder}
                onChange={(e) => setFolder(e.target.value)}
              />
            </label>
            <div className="row-actions">
              <button onClick={() => setStep(2)}>Back</button>
              <button className="primary" data-testid="fr-finish" onClick={() => void finish()}>
                Finish
              </button>
            </div>
          </div>
        )}
        {finished && (
          <div className="step-body">
            <p className="muted">
              Try one of these, or write your own. Enter sends, Shift+Enter adds a line, Esc stops.
            </p>
            <div className="suggestions">
              {SUGGESTIONS.map((s) => (
                <button key={s} className="suggestion" data-testid="fr-suggestion" onClick={() => void start(s)}>
                  {s}
                </button>
              ))}
            </div>
            <div className="row-actions">
              <button data-testid="fr-skip" onClick={() => void start('')}>
                Start with an empty chat
              </button>
            </div>
          </div>
        )}
        {error && (
          <div className="field-error" role="alert" data-testid="fr-error">
            {error}
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * Settings → Models (docs/ui.md): the fallback order (the first healthy one answers; the next is tried when it
 * fails), each with its provider, health from the core and on/off; move up/down, edit, delete; add one, with the
 * ids the provider's last "test connection" listed as suggestions and the window the list gives the picked one
 * (model-window.ts); a model saved without a window is offered the one its provider's list now gives.
 */
import { useState } from 'react';
import { useStore } from 'zustand';
import { REASONING_LEVELS, type ModelView, type ReasoningLevel } from '../../../../shared/contract/providers';
import { skald } from '../../bridge/skald';
import { moveModel, settingsStore, settingsWrite, testProvider } from '../../stores/settings-store';
import { FIRST_KIND, kindInfo } from './provider-kinds';
import { listedWindow, useWindowField, windowLabel, windowRequest } from './model-window';
import { describeHealth } from '../../../../shared/model-health';

/** The last real call's outcome since the app started (docs/architecture.md, "Models"); the order stays yours. */
function healthLabel(h: ModelView['health']): { label: string; className: string; title: string } {
  const when = h.at ? ` (${new Date(h.at).toLocaleString()})` : '';
  if (h.state === 'unknown')
    return { label: 'Not called yet', className: 'muted', title: 'No call to this model since the app started' };
  if (h.state === 'ok') return { label: 'Healthy', className: 'ok-text', title: `Its last call succeeded${when}` };
  return { label: describeHealth(h), className: 'warn', title: `Its last call failed${when}` };
}

/** A provider's last "test connection" that answered with its list; null while testing, failed or never run. */
function answeredTest(test: ReturnType<typeof settingsStore.getState>['tests'][number] | undefined) {
  return test && test !== 'testing' && test.ok ? test : null;
}

const REASONING_HELP = 'Only for models that reason; a model that does not may refuse the request.';
const REASONING_LABELS: Record<ReasoningLevel, string> = { off: 'Off', low: 'Low', medium: 'Medium', high: 'High' };

/** How much the model reasons before it answers, sent with every request to it (docs/models.md "Reasoning"). */
function ReasoningField({
  value,
  onChange,
  testId,
}: {
  value: ReasoningLevel;
  onChange: (level: ReasoningLevel) => void;
  testId: string;
}) {
  return (
    <label className="field reasoning-field">
      <span className="field-label">Reasoning</span>
      <select
        data-testid={testId}
        value={value}
        title={REASONING_HELP}
        onChange={(e) => onChange(e.target.value as ReasoningLevel)}
      >
        {REASONING_LEVELS.map((level) => (
          <option key={level} value={level}>
            {REASONING_LABELS[level]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Shown once a level is picked, the full width of its form. */
function ReasoningHelp({ value }: { value: ReasoningLevel }) {
  return value === 'off' ? null : (
    <span className="muted small field-note reasoning-help" data-testid="model-reasoning-help">
      {REASONING_HELP}
    </span>
  );
}

export function ModelsSettings() {
  const { models, providers, tests } = useStore(settingsStore);
  const [providerId, setProviderId] = useState<number | ''>('');
  const [modelId, setModelId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [reasoning, setReasoning] = useState<ReasoningLevel>('off');
  const [error, setError] = useState<string | null>(null);
  const chosen = providerId === '' ? providers[0]?.id : providerId;
  const listed = chosen !== undefined ? answeredTest(tests[chosen]) : null;
  const suggestions = listed?.models ?? [];
  const windows = listed?.contextWindows;
  const windowInput = useWindowField(listedWindow(windows, modelId));
  const add = async () => {
    if (chosen === undefined) return;
    const message = await settingsWrite(() =>
      skald.models.create({
        providerId: chosen,
        modelId,
        ...(displayName.trim() ? { displayName } : {}),
        ...windowRequest(windowInput.value),
        ...(reasoning !== 'off' ? { reasoning } : {}),
      }),
    );
    setError(message);
    if (!message) setModelId(''), setDisplayName(''), setReasoning('off'), windowInput.reset();
  };
  return (
    <section
      className="settings-section"
      id="settings-models"
      aria-labelledby="models-title"
      data-testid="models-settings"
    >
      <header className="section-head">
        <h2 id="models-title">Models</h2>
        <span className="muted small">
          Tried in this order: the first healthy model answers; when it fails, the next one is tried. A session can also
          pick one.
        </span>
      </header>
      <ol className="card-list">
        {models.map((m, i) => {
          return (
            <ModelRow
              key={m.id}
              model={m}
              index={i}
              count={models.length}
              listedWindow={listedWindow(answeredTest(tests[m.providerId])?.contextWindows, m.modelId)}
            />
          );
        })}
        {models.length === 0 && <li className="muted empty">No model yet.</li>}
      </ol>
      {providers.length > 0 && (
        <form className="add-model" onSubmit={(e) => (e.preventDefault(), void add())} aria-label="Add a model">
          <label className="field">
            <span className="field-label">Provider</span>
            <select
              data-testid="model-provider"
              value={chosen ?? ''}
              onChange={(e) => setProviderId(Number(e.target.value))}
              onBlur={() => chosen !== undefined && !tests[chosen] && void testProvider(chosen)}
            >
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">Model id</span>
            <input
              data-testid="model-id"
              className="mono"
              list="model-suggestions"
              placeholder={`e.g. ${kindInfo(providers.find((p) => p.id === chosen)?.kind ?? FIRST_KIND).modelHint}`}
              value={modelId}
              onChange={(e) => setModelId(e.target.value)}
              onFocus={() => chosen !== undefined && !tests[chosen] && void testProvider(chosen)}
            />
            <datalist id="model-suggestions">
              {suggestions.map((s) => (
                <option key={s} value={s} />
              ))}
            </datalist>
          </label>
          <label className="field">
            <span className="field-label">Shown as (optional)</span>
            <input data-testid="model-display" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
          </label>
          <label className="field">
            <span className="field-label">Context window (tokens)</span>
            <input
              data-testid="model-window"
              type="number"
              min={1}
              step={1}
              placeholder="128000 assumed"
              value={windowInput.value}
              onChange={(e) => windowInput.onChange(e.target.value)}
            />
          </label>
          <ReasoningField value={reasoning} onChange={setReasoning} testId="model-reasoning" />
          <button type="submit" className="primary" data-testid="add-model" disabled={!modelId.trim()}>
            Add model
          </button>
          {windowInput.fromList && (
            <span className="muted small field-note" data-testid="model-window-source">
              The context window is from the provider's list; lower it if the server runs the model with less.
            </span>
          )}
          <ReasoningHelp value={reasoning} />
          {error && (
            <div className="field-error" role="alert">
              {error}
            </div>
          )}
        </form>
      )}
    </section>
  );
}

/** `listedWindow`: what the provider's last test listed for this model, offered while none is set. */
function ModelRow({
  model: m,
  index,
  count,
  listedWindow: listed,
}: {
  model: ModelView;
  index: number;
  count: number;
  listedWindow: number | null;
}) {
  const [editing, setEditing] = useState(false);
  const current = () => ({
    displayName: m.displayName,
    contextWindow: m.contextWindow?.toString() ?? '',
    reasoning: m.reasoning,
  });
  const [draft, setDraft] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const health = healthLabel(m.health);
  const run = async (work: () => Promise<unknown>) => {
    const message = await settingsWrite(work);
    setError(message);
    if (!message) setEditing(false);
  };
  return (
    <li className="card-row" data-testid="model-row" data-model={m.modelId}>
      <span className="rule-pos muted small">{index + 1}</span>
      <div className="card-row-main">
        <div className="card-title">
          <strong>{m.displayName || m.modelId}</strong>
          <span className="muted small mono">{m.modelId}</span>
          <span className="muted small">· {m.providerName}</span>
        </div>
        <div className="small">
          <span className={health.className} title={health.title} data-testid="model-health">
            {health.label}
          </span>
          {m.contextWindow && <span className="muted"> · {windowLabel(m.contextWindow)} context</span>}
          {m.reasoning !== 'off' && (
            <span className="muted" data-testid="model-reasoning-label">
              {' '}
              · reasoning {m.reasoning}
            </span>
          )}
          {!m.contextWindow && listed !== null && (
            <span className="muted">
              {' · '}the provider lists {windowLabel(listed)} context{' '}
              <button
                type="button"
                className="link-button"
                data-testid="model-window-suggestion"
                onClick={() => void run(() => skald.models.update({ id: m.id, contextWindow: listed }))}
              >
                Use it
              </button>
            </span>
          )}
        </div>
        {editing && (
          <form
            className="inline-form"
            onSubmit={(e) => (
              e.preventDefault(),
              void run(() =>
                skald.models.update({
                  id: m.id,
                  displayName: draft.displayName,
                  contextWindow: draft.contextWindow.trim() ? Number(draft.contextWindow) : null,
                  reasoning: draft.reasoning,
                }),
              )
            )}
          >
            <label className="field">
              <span className="field-label">Shown as</span>
              <input value={draft.displayName} onChange={(e) => setDraft({ ...draft, displayName: e.target.value })} />
            </label>
            <label className="field">
              <span className="field-label">Context window (tokens)</span>
              <input
                type="number"
                value={draft.contextWindow}
                onChange={(e) => setDraft({ ...draft, contextWindow: e.target.value })}
              />
            </label>
            <ReasoningField
              value={draft.reasoning}
              onChange={(reasoning) => setDraft({ ...draft, reasoning })}
              testId="model-edit-reasoning"
            />
            <ReasoningHelp value={draft.reasoning} />
            <div className="row-actions">
              <button type="button" onClick={() => setEditing(false)}>
                Cancel
              </button>
              <button type="submit" className="primary">
                Save
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
      <div className="card-row-actions">
        <label className="switch small">
          <input
            type="checkbox"
            checked={m.enabled}
            onChange={(e) => void run(() => skald.models.update({ id: m.id, enabled: e.target.checked }))}
            aria-label={`Use ${m.displayName || m.modelId}`}
          />{' '}
          On
        </label>
        <button
          className="icon ghost"
          aria-label={`Move ${m.modelId} up`}
          disabled={index === 0}
          onClick={() => void moveModel(m.id, -1)}
        >
          ↑
        </button>
        <button
          className="icon ghost"
          aria-label={`Move ${m.modelId} down`}
          disabled={index === count - 1}
          onClick={() => void moveModel(m.id, 1)}
        >
          ↓
        </button>
        <button className="ghost" onClick={() => (setDraft(current()), setEditing(true))}>
          Edit
        </button>
        <button
          className="ghost danger"
          aria-label={`Delete model ${m.modelId}`}
          onClick={() => void run(() => skald.models.delete({ id: m.id }))}
        >
          Delete
        </button>
      </div>
    </li>
  );
}

/**
 * What an MCP call shows while it runs (docs/mcp.md "Elicitation", "Calls"): its progress, and a server's request
 * for input as a form made from the server's schema (strings, numbers, booleans, enums; fields that look like
 * secrets are password inputs). Accept sends the values to the core, which hands them to the server only;
 * Decline and Cancel send nothing but the choice. The same form is shown on the chat card and in the Inbox.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { ElicitationView } from '../../../../shared/contract/mcp';
import { skald } from '../../bridge/skald';
import { useNow } from '../../lib/use-now';
import { mcp } from '../../stores/mcp-store';
import './mcp.css';

interface Field {
  type?: string;
  title?: string;
  description?: string;
  enum?: string[];
  enumNames?: string[];
  oneOf?: { const: string; title?: string }[];
  default?: unknown;
  format?: string;
}

type Value = string | number | boolean;

function initialValues(properties: Record<string, Field>): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const [name, f] of Object.entries(properties))
    if (f.default !== undefined && typeof f.default !== 'object') out[name] = f.default as Value;
  return out;
}

export function ElicitationForm({ elicitation }: { elicitation: ElicitationView }) {
  const schema = JSON.parse(elicitation.schema) as { properties?: Record<string, Field>; required?: string[] };
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const sensitive = new Set(elicitation.sensitive);
  const [values, setValues] = useState<Record<string, Value>>(() => initialValues(properties));
  const [error, setError] = useState<string | null>(null);
  const now = useNow(true, 1_000);
  const left = Math.max(0, Math.round((elicitation.deadline - now) / 1000));
  const send = (action: 'accept' | 'decline' | 'cancel') => {
    setError(null);
    const content = action === 'accept' ? values : undefined;
    skald.mcp.resolveElicitation({ id: elicitation.id, action, content }).then(
      () => mcp.refresh(),
      (e: Error) => setError(e.message),
    );
  };
  const set = (name: string, value: Value | undefined) =>
    setValues((v) => {
      const next = { ...v };
      if (value === undefined || value === '') delete next[name];
      else next[name] = value;
      return next;
    });

  return (
    <form
      className="elicitation"
      data-testid="mcp-elicitation"
      onSubmit={(e) => {
        e.preventDefault();
        send('accept');
      }}
    >
      <div className="elicitation-head">
        <strong>{elicitation.server}</strong> asks: <span>{elicitation.message}</span>
        <span className="muted small">
          {' '}
          · {Math.floor(left / 60)}:{String(left % 60).padStart(2, '0')} left
        </span>
      </div>
      {Object.entries(properties).map(([name, f]) => {
        const id = `elicit-${elicitation.id}-${name}`;
        const options =
          f.oneOf?.map((o) => ({ value: o.const, label: o.title ?? o.const })) ??
          f.enum?.map((v, i) => ({ value: v, label: f.enumNames?.[i] ?? v }));
        let control;
        if (options) {
          control = (
            <select id={id} value={String(values[name] ?? '')} onChange={(e) => set(name, e.target.value)}>
              <option value="">—</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          );
        } else if (f.type === 'boolean') {
          control = (
            <input
              id={id}
              type="checkbox"
              checked={values[name] === true}
              onChange={(e) => set(name, e.target.checked)}
            />
          );
        } else if (f.type === 'number' || f.type === 'integer') {
          control = (
            <input
              id={id}
              type="number"
              step={f.type === 'integer' ? 1 : 'any'}
              value={String(values[name] ?? '')}
              onChange={(e) => set(name, e.target.value === '' ? undefined : Number(e.target.value))}
            />
          );
        } else {
          const type = sensitive.has(name)
            ? 'password'
            : f.format === 'email'
              ? 'email'
              : f.format === 'date'
                ? 'date'
                : f.format === 'uri'
                  ? 'url'
                  : 'text';
          control = (
            <input
              id={id}
              type={type}
              autoComplete="off"
              value={String(values[name] ?? '')}
              onChange={(e) => set(name, e.target.value)}
            />
          );
        }
        return (
          <div className="schema-field" key={name}>
            <label htmlFor={id}>
              {f.title ?? name}
              {required.has(name) ? ' *' : ''}
            </label>
            {control}
            {f.description && <small className="muted">{f.description}</small>}
          </div>
        );
      })}
      <div className="elicitation-actions">
        <button className="primary" type="submit" data-testid="elicitation-accept">
          Send
        </button>
        <button type="button" onClick={() => send('decline')}>
          Decline
        </button>
        <button type="button" onClick={() => send('cancel')}>
          Cancel
        </button>
      </div>
      <small className="muted">
        Your answer goes to this server only; it is not stored and the model never sees it.
      </small>
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}

/** Under an MCP tool card: its progress and any question its server asks during the call. */
export function McpCallExtras({ toolCallId, running }: { toolCallId: string; running: boolean }) {
  useEffect(() => mcp.watch(), []);
  const progress = useStore(mcp.store, (s) => s.progress[toolCallId]);
  // Select the stored array (stable between renders) and filter here: a selector returning a new array loops.
  const asks = useStore(mcp.store, (s) => s.elicitations).filter((e) => e.toolCallId === toolCallId);
  return (
    <>
      {running && progress && (
        <div className="mcp-progress" data-testid="mcp-progress">
          {progress.total ? <progress value={progress.progress} max={progress.total} /> : null}
          <span className="muted small">
            {progress.total ? `${progress.progress} / ${progress.total}` : `${progress.progress}`}
            {progress.message ? ` · ${progress.message}` : ''}
          </span>
        </div>
      )}
      {asks.map((e) => (
        <ElicitationForm key={e.id} elicitation={e} />
      ))}
    </>
  );
}

/** The Inbox's part: every elicitation waiting, from any session. */
export function McpInboxElicitations() {
  useEffect(() => mcp.watch(), []);
  const asks = useStore(mcp.store, (s) => s.elicitations);
  return (
    <>
      {asks.map((e) => (
        <div key={e.id} className="tool-card" data-testid="inbox-elicitation">
          <div className="tool-head">
            <span className="tool-state">question from {e.server}</span>
          </div>
          <ElicitationForm elicitation={e} />
        </div>
      ))}
    </>
  );
}

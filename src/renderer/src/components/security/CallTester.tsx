/**
 * "What would happen if…" (docs/ui.md): pick a tool and a session, give the arguments (or start from a logged
 * call), and see the gate's decision with every step that made it. It is `approval:explain`: the same evaluation
 * the gate runs for a real call of that session (its group, working directory, bypasses), and it writes nothing.
 */
import { useEffect, useState } from 'react';
import { ACTION_WORDS } from '../../../../shared/contract/approval';
import type { CallResponse } from '../../../../shared/contract/index';
import type { ToolInfo } from '../../../../shared/contract/approval';
import { TN } from '../../../../shared/tool-names';
import { mainArgumentOf, type ArgumentTraits } from '../../../../shared/tool-traits';
import { skald } from '../../bridge/skald';
import type { OpenFolder } from './open-folder';

type Explained = CallResponse<'approval:explain'>;
type Session = CallResponse<'chat:listSessions'>['sessions'][number];

export interface TesterSeed {
  toolName: string;
  args: Record<string, unknown>;
  sessionId: number | null;
}

/** A new call's arguments: its main argument (command or path, as the tool says) empty, nothing else. */
const templateFor = (traits: ArgumentTraits | null): Record<string, unknown> => {
  const key = mainArgumentOf(traits);
  return key ? { [key]: '' } : {};
};

/** The first call shown: reading a file, the question most asked here. */
const FIRST_TOOL = TN.READ_FILE;

export function CallTester({
  tools,
  seed,
  open,
}: {
  tools: readonly ToolInfo[];
  seed: TesterSeed | null;
  open: OpenFolder;
}) {
  const traitsOf = (name: string) => tools.find((t) => t.name === name)?.traits ?? null;
  const [toolName, setToolName] = useState(seed?.toolName ?? FIRST_TOOL);
  const first = seed?.args ?? templateFor(traitsOf(FIRST_TOOL));
  const [args, setArgs] = useState<Record<string, unknown>>(first);
  const [json, setJson] = useState(JSON.stringify(first, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);
  // The open session unless a logged call names its own: the answer is then that session's gate, in its folder.
  const [sessionId, setSessionId] = useState<number | null>(seed ? seed.sessionId : open.sessionId);
  const [sessions, setSessions] = useState<Session[]>([]);
  const [result, setResult] = useState<Explained | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(
    () =>
      void skald.chat.listSessions({}).then(
        (r) => setSessions(r.sessions),
        () => {},
      ),
    [],
  );

  const update = (next: Record<string, unknown>) => {
    setArgs(next);
    setJson(JSON.stringify(next, null, 2));
    setJsonError(null);
    setResult(null);
  };
  const ask = () => {
    setError(null);
    skald.approval
      .explain({ toolName, args, ...(sessionId !== null ? { sessionId } : {}) })
      .then(setResult, (e: Error) => setError(e.message));
  };
  const traits = traitsOf(toolName);
  const mainKey = mainArgumentOf(traits);
  const isCommand = mainKey !== null && mainKey === traits?.commandKey;

  return (
    <section className="sec-card" aria-labelledby="tester-title">
      <header className="sec-card-head">
        <h2 id="tester-title">What would happen if…</h2>
        <span className="muted small">
          The gate&apos;s own answer for this call, now, in the chosen session. Nothing runs and nothing is written.
        </span>
      </header>
      <form className="tester-form" onSubmit={(e) => (e.preventDefault(), ask())}>
        <label className="field">
          <span className="field-label">Tool</span>
          <input
            data-testid="tester-tool"
            className="mono"
            list="tester-tools"
            value={toolName}
            onChange={(e) => {
              setToolName(e.target.value);
              update(templateFor(traitsOf(e.target.value)));
            }}
          />
          <datalist id="tester-tools">
            {tools.map((t) => (
              <option key={t.name} value={t.name} />
            ))}
          </datalist>
        </label>
        <label className="field">
          <span className="field-label">In session</span>
          <select
            data-testid="tester-session"
            value={sessionId ?? ''}
            onChange={(e) => {
              setSessionId(e.target.value === '' ? null : Number(e.target.value));
              setResult(null);
            }}
          >
            <option value="">None (Default group, the default workspace)</option>
            {sessions.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        {mainKey && (
          <label className="field tester-main">
            <span className="field-label">{isCommand ? 'Command' : 'Path'}</span>
            <input
              data-testid={isCommand ? 'tester-command' : 'tester-path'}
              className="mono"
              value={typeof args[mainKey] === 'string' ? (args[mainKey] as string) : ''}
              onChange={(e) => update({ ...args, [mainKey]: e.target.value })}
              placeholder={isCommand ? 'git status && npm test' : 'src/index.ts'}
            />
          </label>
        )}
        <label className="field tester-json">
          <span className="field-label">Arguments (JSON)</span>
          <textarea
            data-testid="tester-args"
            className="mono"
            rows={4}
            value={json}
            aria-invalid={jsonError !== null}
            onChange={(e) => {
              setJson(e.target.value);
              setResult(null);
              try {
                const v: unknown = JSON.parse(e.target.value);
                if (!v || typeof v !== 'object' || Array.isArray(v))
                  throw new Error('The arguments must be a JSON object.');
                setArgs(v as Record<string, unknown>);
                setJsonError(null);
              } catch (err) {
                setJsonError((err as Error).message);
              }
            }}
          />
          {jsonError && <span className="field-error">{jsonError}</span>}
        </label>
        <div className="row-actions">
          <button
            type="submit"
            className="primary"
            data-testid="tester-run"
            disabled={jsonError !== null || !toolName.trim()}
          >
            What would happen?
          </button>
        </div>
      </form>
      {error && (
        <div className="banner banner-error" role="alert">
          {error}
        </div>
      )}
      {result && (
        <div
          className="tester-result"
          data-testid="tester-result"
          data-action={result.decision.action}
          aria-live="polite"
        >
          <div className="tester-verdict">
            <span className={`badge badge-${result.decision.action}`}>{ACTION_WORDS[result.decision.action]}</span>
            <span data-testid="tester-why">{result.decision.why.text}</span>
          </div>
          {result.hidden && (
            <div className="warn small">
              This tool is not even offered to the model in this group: a rule without a path denies it.
            </div>
          )}
          <ol className="tester-trace">
            {result.trace.map((line, i) => (
              <li key={i} className="mono small">
                {line}
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

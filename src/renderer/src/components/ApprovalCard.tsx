/**
 * The approval of one call, the same in the chat card and the Inbox (docs/bypass.md): the full effective arguments
 * the hash covers, never truncated, invisible characters made visible, a diff for writes; a note for the agent;
 * approve once or reject; or approve with a bypass whose scope and end are spelled out before the click, the
 * narrowest offered scope selected, wider ones explicit choices. The decision is bound to the arguments' hash.
 * A secret argument (set_secret's value, a plugin's secret field) arrives sealed and shows masked, with a reveal
 * the person controls (SecretReveal). A command's card says where it runs and offers, for that call alone, network or
 * running outside the sandbox (SandboxLine).
 */
import { useRef, useState } from 'react';
import { focusBeforeRemoval } from '../lib/focus-anchor';
import type { InboxApproval } from '../../../shared/contract/inbox';
import { BYPASS_DURATIONS, isWideScope, untilText, type BypassKind } from '../lib/bypass-choice';
import { useNow } from '../lib/use-now';
import { hasSealedValue, showSealedJson } from '../../../shared/sealed';
import { hasInvisible, revealInvisible } from '../lib/visible-chars';
import { approvals, type ApprovalDecision } from '../stores/approvals';
import { CodeLabel } from './CodeLabel';
import { DiffView } from './DiffView';
import { SandboxChoices, SandboxLine } from './SandboxLine';
import { SecretReveal, useRevealed } from './SecretReveal';

export function ApprovalCard({ item }: { item: InboxApproval }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const options = item.bypass_options;
  const [scope, setScope] = useState<BypassKind | null>(options[0]?.scope.kind ?? null);
  const [secs, setSecs] = useState(BYPASS_DURATIONS[0]!.secs);
  const now = useNow(true, 15_000);
  const chosen = options.find((o) => o.scope.kind === scope) ?? null;
  const hasDiff = item.new_content !== null || item.old_content !== null;
  const revealed = useRevealed(item.request_id);
  // A sealed argument's length is its ciphertext's, not the value's: such a call says it holds a secret instead.
  const argumentsSize = hasSealedValue(item.arguments) ? 'with a secret' : `${item.arguments.length} characters`;

  const root = useRef<HTMLDivElement>(null);
  const decide = async (decision: ApprovalDecision) => {
    focusBeforeRemoval(root.current);
    setBusy(true);
    setError(null);
    try {
      await approvals.resolve(item, decision);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  return (
    <div className="approval" data-testid="approval-card" ref={root}>
      <div className="approval-title">
        Approve <code>{item.tool_name}</code>?
      </div>
      {item.sandbox && <SandboxLine line={item.sandbox} />}
      {hasInvisible(item.arguments) && (
        <div className="warn">These arguments contain invisible characters, shown as ⟦U+…⟧.</div>
      )}
      {item.refusal !== null && (
        <div className="warn" data-testid="approval-refusal">
          The tool would refuse this call: {item.refusal}
        </div>
      )}
      {hasDiff && <DiffView oldText={item.old_content} newText={item.new_content} />}
      <details open={!hasDiff}>
        <summary>Full arguments ({argumentsSize})</summary>
        <pre className="args" data-testid="approval-args">
          {revealInvisible(showSealedJson(item.arguments, revealed ?? []))}
        </pre>
        <SecretReveal item={item} />
      </details>
      <div className="approval-actions">
        <input
          placeholder="Note to the agent (optional; sent with your answer)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          aria-label="Note to the agent"
        />
        <button className="primary" disabled={busy} onClick={() => void decide({ action: 'approve', note })}>
          Approve once
        </button>
        <button className="danger" disabled={busy} onClick={() => void decide({ action: 'reject', note })}>
          Reject
        </button>
      </div>
      {item.sandbox && (
        <SandboxChoices
          line={item.sandbox}
          busy={busy}
          onChoose={(sandbox) => void decide({ action: 'approve', note, sandbox })}
        />
      )}
      {options.length > 0 && (
        <fieldset className="bypass-choice" data-testid="bypass-choice">
          <legend>Or approve and stop asking, in this session, for</legend>
          {options.map((o) => (
            <label key={o.scope.kind} className={`bypass-option${isWideScope(o.scope.kind) ? ' wide' : ''}`}>
              <input
                type="radio"
                name={`bypass-${item.request_id}`}
                checked={scope === o.scope.kind}
                onChange={() => setScope(o.scope.kind)}
              />
              <CodeLabel text={o.label} />
              {isWideScope(o.scope.kind) && <span className="small warn"> (wider)</span>}
            </label>
          ))}
          <div className="approval-actions">
            <select aria-label="For how long" value={secs} onChange={(e) => setSecs(Number(e.target.value))}>
              {BYPASS_DURATIONS.map((d) => (
                <option key={d.secs} value={d.secs}>
                  for {d.label}
                </option>
              ))}
            </select>
            <button
              data-testid="approve-bypass"
              disabled={busy || !chosen}
              onClick={() =>
                chosen && void decide({ action: 'approve', note, bypass: { secs, scope: chosen.scope.kind } })
              }
            >
              Approve and allow {chosen && <CodeLabel text={chosen.label} />} {untilText(secs, now)}
            </button>
          </div>
          <div className="muted small">
            A bypass never overrides a deny rule or a locked guard, nor lifts the sandbox, and commands with
            substitutions, <code>bash -c</code> or redirects out of the workspace always ask.
          </div>
        </fieldset>
      )}
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

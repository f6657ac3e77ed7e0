/**
 * The inline approval card (SPEC.md §4 "Approval shows everything"): the full, untruncated arguments with
 * invisible characters made visible, a diff for writes, and approve once / reject with a note / approve with a
 * time-boxed bypass (15 min, 1 h, this session). The decision is bound to the arguments' hash (I6).
 */
import { useState } from 'react';
import type { ToolCard } from '../../../shared/contract/chat';
import { hasInvisible, revealInvisible } from '../lib/visible-chars';
import { DiffView } from './DiffView';

export interface ApprovalDecision {
  action: 'approve' | 'reject';
  note: string;
  bypassSecs?: number;
}

function prettyArguments(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

export function ApprovalCard({ card, onResolve }: { card: ToolCard; onResolve: (decision: ApprovalDecision) => Promise<void> }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const args = prettyArguments(card.arguments);
  const pending = card.pending!;

  const decide = async (decision: ApprovalDecision) => {
    setBusy(true);
    setError(null);
    try {
      await onResolve(decision);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  return (
    <div className="approval" data-testid="approval-card">
      <div className="approval-title">Approve <code>{card.name}</code>?</div>
      {hasInvisible(card.arguments) && <div className="warn">These arguments contain invisible characters, shown as ⟦U+…⟧.</div>}
      {(pending.new_content !== null || pending.old_content !== null) && <DiffView oldText={pending.old_content} newText={pending.new_content} />}
      <details open={pending.new_content === null}>
        <summary>Full arguments ({card.arguments.length} characters)</summary>
        <pre className="args" data-testid="approval-args">{revealInvisible(args)}</pre>
      </details>
      <div className="approval-actions">
        <button className="primary" disabled={busy} onClick={() => decide({ action: 'approve', note: '' })}>Approve once</button>
        <button disabled={busy} onClick={() => decide({ action: 'approve', note: '', bypassSecs: 15 * 60 })}>Approve, allow 15 min</button>
        <button disabled={busy} onClick={() => decide({ action: 'approve', note: '', bypassSecs: 60 * 60 })}>1 h</button>
        <button disabled={busy} onClick={() => decide({ action: 'approve', note: '', bypassSecs: 0 })}>Session</button>
        <input placeholder="Reason (sent to the agent)" value={note} onChange={(e) => setNote(e.target.value)} aria-label="Reject reason" />
        <button className="danger" disabled={busy} onClick={() => decide({ action: 'reject', note })}>Reject</button>
      </div>
      {error && <div className="error">{error}</div>}
    </div>
  );
}

/**
 * The Agent Inbox: every call waiting for a person, from any session (background runs included), with the same
 * full arguments, invisible characters shown, and a decision bound to the arguments' hash. Refreshes on the
 * `inbox` events and every 8 s while open (reference-facts.md §7).
 */
import { useEffect, useState } from 'react';
import type { CallResponse } from '../../../shared/contract/index';
import { skald } from '../bridge/skald';
import { revealInvisible } from '../lib/visible-chars';
import { DiffView } from './DiffView';

type Inbox = CallResponse<'inbox:list'>;

export function InboxPanel({ onClose }: { onClose: () => void }) {
  const [inbox, setInbox] = useState<Inbox | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = () => skald.inbox.list({}).then(setInbox, (e: Error) => setError(e.message));
  useEffect(() => {
    void reload();
    const off = skald.on.inbox(() => void reload());
    const timer = setInterval(() => void reload(), 8_000);
    return () => {
      off();
      clearInterval(timer);
    };
  }, []);
  const decide = (requestId: number, argsHash: string, action: 'approve' | 'reject') =>
    skald.inbox.resolveApproval({ requestId, argsHash, action, note: '' }).then(reload, (e: Error) => setError(e.message));

  return (
    <div className="settings" data-testid="inbox">
      <div className="settings-head">
        <h2>Inbox</h2>
        <button onClick={onClose}>Close</button>
      </div>
      {error && <div className="error">{error}</div>}
      {inbox && inbox.total === 0 && <p className="muted">Nothing is waiting for you.</p>}
      {inbox?.approvals.map((a) => (
        <div key={a.request_id} className="tool-card" data-testid="inbox-item">
          <div className="tool-head">
            <span className="tool-state">session {a.session_id}</span>
            <span className="tool-label">{a.tool_name}</span>
            {a.context_label && <span className="muted small">{a.context_label}</span>}
          </div>
          <div className="approval">
            {(a.new_content !== null || a.old_content !== null) && <DiffView oldText={a.old_content} newText={a.new_content} />}
            <pre className="args">{revealInvisible(a.arguments)}</pre>
            <div className="approval-actions">
              <button className="primary" onClick={() => void decide(a.request_id, a.args_hash, 'approve')}>Approve</button>
              <button className="danger" onClick={() => void decide(a.request_id, a.args_hash, 'reject')}>Reject</button>
            </div>
          </div>
        </div>
      ))}
      {inbox?.clarifications.map((c) => (
        <div key={c.request_id} className="tool-card">
          <div className="tool-head">
            <span className="tool-state">question</span>
            <span className="tool-label">{c.title}</span>
          </div>
        </div>
      ))}
    </div>
  );
}

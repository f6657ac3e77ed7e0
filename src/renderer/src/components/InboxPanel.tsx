/**
 * The Agent Inbox: everything waiting for the person, from any session (background runs included), with the same
 * approval and question components as the chat card (full effective arguments, note, scoped bypass, suggested
 * and free answers), a link to each item's session, and every live bypass with its countdown and Revoke.
 */
import { useEffect, useRef } from 'react';
import { useDialogFocus } from '../lib/use-dialog-focus';
import { useStore } from 'zustand';
import type { InboxApproval } from '../../../shared/contract/inbox';
import { useNow } from '../lib/use-now';
import { approvals, liveBypasses } from '../stores/approvals';
import { mcp } from '../stores/mcp-store';
import { selectSession, sessionsStore } from '../stores/sessions-store';
import { ApprovalCard } from './ApprovalCard';
import { BypassBadge } from './BypassBadge';
import { QuestionCard } from './QuestionCard';
import { McpInboxElicitations } from './settings/McpSettingsElicitation';

function SessionLink({ sessionId, label, onOpen }: { sessionId: number; label: string | null; onOpen: () => void }) {
  const title = useStore(sessionsStore, (s) => s.sessions.find((x) => x.id === sessionId)?.title);
  return (
    <a
      href="#"
      className="session-link"
      data-testid="inbox-session-link"
      onClick={(e) => {
        e.preventDefault();
        selectSession(sessionId);
        onOpen();
      }}
    >
      {label || title || `Session ${sessionId}`} ↗
    </a>
  );
}

/** What the call acts on, for the item's head: its path or command (the full arguments are in the card). */
function targetOf(item: InboxApproval): string | null {
  try {
    const args = JSON.parse(item.arguments) as { path?: unknown; command?: unknown };
    const target = typeof args.command === 'string' ? args.command : typeof args.path === 'string' ? args.path : null;
    return target && target.length > 120 ? `${target.slice(0, 119)}…` : target;
  } catch {
    return null;
  }
}

function ApprovalItem({ item, onOpen }: { item: InboxApproval; onOpen: () => void }) {
  const target = targetOf(item);
  return (
    <div className="tool-card" data-testid="inbox-item">
      <div className="tool-head">
        <span className="tool-state">{item.live ? 'approval' : 'approval (after restart)'}</span>
        <span className="tool-label">
          {item.tool_name} {target && <code>{target}</code>}
        </span>
        <SessionLink sessionId={item.session_id} label={item.context_label} onOpen={onOpen} />
      </div>
      <ApprovalCard item={item} />
    </div>
  );
}

export function InboxPanel({ onClose }: { onClose: () => void }) {
  const state = useStore(approvals.store);
  const now = useNow(true, 5_000);
  const bypasses = liveBypasses(state, now);
  useEffect(() => approvals.watch(), []);
  // An MCP server's question waits here too: while one is shown, the Inbox is not empty.
  const elicitations = useStore(mcp.store, (s) => s.elicitations.length);
  const total = state.approvals.length + state.clarifications.length + elicitations;
  // A dialog over the page: the focus goes in, stays in (Tab goes round), and goes back to the Inbox button on close.
  const root = useRef<HTMLDivElement>(null);
  useDialogFocus(root, onClose);

  return (
    <div
      className="settings inbox"
      data-testid="inbox"
      role="dialog"
      aria-modal="true"
      aria-labelledby="inbox-title"
      ref={root}
    >
      <div className="settings-head">
        <h2 id="inbox-title">Inbox</h2>
        <button onClick={onClose}>Close</button>
      </div>
      {state.error && <div className="error">{state.error}</div>}
      {state.loaded && total === 0 && (
        <p className="muted">
          Nothing is waiting for you. Approvals and questions from every chat and scheduled run appear here.
        </p>
      )}
      {state.approvals.map((a) => (
        <ApprovalItem key={a.request_id} item={a} onOpen={onClose} />
      ))}
      {state.clarifications.map((c) => (
        <div key={c.request_id} className="tool-card" data-testid="inbox-question">
          <div className="tool-head">
            <span className="tool-state">question</span>
            <SessionLink sessionId={c.session_id} label={c.context_label} onOpen={onClose} />
          </div>
          <QuestionCard
            question={{ requestId: c.request_id, title: c.title, question: c.question, suggested: c.suggested_answers }}
          />
        </div>
      ))}
      <McpInboxElicitations />
      {bypasses.length > 0 && (
        <>
          <h3>Active bypasses</h3>
          {bypasses.map((b) => (
            <div key={b.id} className="inbox-bypass" data-testid="inbox-bypass">
              <BypassBadge bypass={b} />
              <SessionLink sessionId={b.session_id} label={null} onOpen={onClose} />
            </div>
          ))}
        </>
      )}
    </div>
  );
}

/**
 * One tool call: its label, state, the decision's "why", the result, and the path as a link that opens the
 * viewer. A pending call shows the approval card; an interrupted side-effecting call offers "re-run".
 */
import { useState } from 'react';
import type { ToolCard } from '../../../shared/contract/chat';
import { ApprovalCard, type ApprovalDecision } from './ApprovalCard';
import { TN } from '../../../shared/tool-names';
import { QuestionCard } from './QuestionCard';

const STATE_LABEL: Record<ToolCard['status'], string> = {
  running: 'running',
  pending: 'waiting for you',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  rejected: 'rejected',
};

export interface ToolCardActions {
  openPath: (path: string, toolCallId: string) => void;
  resolve: (card: ToolCard, decision: ApprovalDecision) => Promise<void>;
  rerun: (card: ToolCard) => void;
}

function whyText(card: ToolCard): string | null {
  const d = card.decision;
  if (!d) return null;
  const verb = d.action === 'allow' ? 'allowed' : d.action === 'deny' ? 'denied' : 'asked';
  return `${verb}${d.actor === 'user' ? ' by you' : ''}: ${d.text}`;
}

export function ToolCardView({ card, actions }: { card: ToolCard; actions: ToolCardActions }) {
  const [expanded, setExpanded] = useState(false);
  const state = card.interrupted ? 'interrupted' : STATE_LABEL[card.status];
  const why = whyText(card);
  return (
    <div className={`tool-card tool-${card.interrupted ? 'interrupted' : card.status}`} data-testid="tool-card" data-tool={card.name} data-status={card.status}>
      <div className="tool-head" onClick={() => setExpanded(!expanded)} title={card.label_full}>
        <span className="tool-state">{state}</span>
        <span className="tool-label">{card.label_short}</span>
        {card.path && (
          <a
            className="tool-path"
            href="#"
            data-testid="tool-path"
            onClick={(e) => {
              e.preventDefault();
              e.stopPropagation();
              actions.openPath(card.path!, card.tool_call_id);
            }}
          >
            {card.path}
          </a>
        )}
      </div>
      {why && <div className="tool-why" data-testid="tool-why">{why}</div>}
      {card.status === 'pending' && card.pending && card.name === TN.ASK_USER_CLARIFICATION && <QuestionCard card={card} />}
      {card.status === 'pending' && card.pending && card.name !== TN.ASK_USER_CLARIFICATION && <ApprovalCard card={card} onResolve={(d) => actions.resolve(card, d)} />}
      {card.interrupted && (
        <div className="tool-interrupted">
          Interrupted when the app stopped. <button onClick={() => actions.rerun(card)}>Re-run</button>
        </div>
      )}
      {expanded && (
        <div className="tool-body">
          <pre className="args">{card.arguments}</pre>
          {card.result !== null && <pre className="result">{card.result}</pre>}
        </div>
      )}
      {!expanded && card.result !== null && card.status !== 'done' && <div className="tool-result-line">{card.result.slice(0, 300)}</div>}
    </div>
  );
}

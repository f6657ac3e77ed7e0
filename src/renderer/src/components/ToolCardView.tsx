/**
 * One tool call, following its row's state live: the label with its code as code, the state, the decision's
 * "why", the result (a command's last lines and exit code, expandable; a search's hits as links to their lines), the
 * path as a link that opens the viewer.
 * A call waiting its turn behind another says `queued`, never `running`. A pending call shows the same approval or
 * question the Inbox shows; a bypass this card granted shows with its countdown and Revoke; an interrupted
 * side-effecting call offers "Re-run". A finished `image_generate` shows thumbnails of its images that open in the
 * viewer.
 */
import { useState } from 'react';
import { MCP_PREFIX } from '../../../shared/tool-names';
import { McpCallExtras } from './settings/McpSettingsElicitation';
import { useStore } from 'zustand';
import type { ToolCard } from '../../../shared/contract/chat';
import { FS_WRITE_TOOLS, TN } from '../../../shared/tool-names';
import { hasSealedValue, maskSealedJson } from '../../../shared/sealed';
import { humanDecisionNote } from '../../../shared/contract/approval';
import { localTime } from '../lib/bypass-choice';
import { approvalFor, approvals, clarificationFor } from '../stores/approvals';
import { ApprovalCard } from './ApprovalCard';
import { BypassBadge } from './BypassBadge';
import { CodeLabel } from './CodeLabel';
import { MessageImages } from './MessageImages';
import { ToolCardResult } from './ToolCardResult';
import { ImageThumbnails } from './ImageThumbnails';
import { AnsweredQuestion, QuestionCard, questionFromArguments } from './QuestionCard';
import { ShellOutput } from './ShellOutput';
import { SUB_AGENT_LAUNCHERS, SubAgentCard } from './agents/SubAgentCard';
import { DELIVERED_TOOLS, DeliveredCard } from './agents/DeliveredCard';

const STATE_LABEL: Record<ToolCard['status'], string> = {
  queued: 'queued',
  running: 'running',
  pending: 'waiting for you',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  rejected: 'rejected',
};

/** Why a call has not started: the round runs its calls one after another (docs/chat-ui.md "Tool cards"). */
const QUEUED_HINT =
  'Not started yet: it runs once the calls before it in this round are done (one may be waiting for your approval).';

export interface ToolCardActions {
  /** Opens a path in the viewer: at `line` when given (a search hit), else at the line the call names. */
  openPath: (path: string, toolCallId: string, line?: number) => void;
  rerun: (card: ToolCard) => void;
  /** A finished write's before/after in the viewer (docs/viewer.md "Diff and revert"); `revert` asks to undo it. */
  openDiff?: (card: ToolCard, revert: boolean) => void;
}

/** The core writes instants as ISO-8601 (it cannot know the reader's clock); the card shows them in local time. */
const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g;

function whyText(card: ToolCard): string | null {
  const d = card.decision;
  if (!d) return null;
  const verb = d.action === 'allow' ? 'allowed' : d.action === 'deny' ? 'denied' : 'asked';
  const text = d.why.text.replace(ISO_INSTANT, (iso) => localTime(Date.parse(iso)));
  // A person's decision: "allowed by you", with their note if any (its sentence says "by you" again).
  if (d.why.kind === 'human') {
    const note = humanDecisionNote(text);
    return `${verb} by you${note ? `: ${note}` : ''}`;
  }
  return `${verb}${d.actor === 'user' ? ' by you' : ''}: ${text}`;
}

function commandOf(card: ToolCard): string | null {
  if (card.name !== TN.EXECUTE_CMD) return null;
  try {
    const args = JSON.parse(card.arguments) as { command?: unknown };
    return typeof args.command === 'string' ? args.command : null;
  } catch {
    return null;
  }
}

function PendingPart({ card }: { card: ToolCard }) {
  const approval = useStore(approvals.store, (s) => approvalFor(s, card.tool_call_id));
  const clarification = useStore(approvals.store, (s) => clarificationFor(s, card.tool_call_id));
  if (card.name === TN.ASK_USER_CLARIFICATION) {
    const q = clarification
      ? {
          requestId: clarification.request_id,
          title: clarification.title,
          question: clarification.question,
          suggested: clarification.suggested_answers,
        }
      : card.pending && questionFromArguments(card.pending.request_id, card.arguments);
    return q ? <QuestionCard question={q} /> : null;
  }
  if (approval) return <ApprovalCard item={approval} />;
  return <div className="approval muted small">Waiting for your approval…</div>;
}

export function ToolCardView({ card, actions }: { card: ToolCard; actions: ToolCardActions }) {
  const [expanded, setExpanded] = useState(false);
  const bypasses = useStore(approvals.store, (s) => s.bypasses);
  const granted = bypasses.filter((b) => b.tool_call_id === card.tool_call_id);
  // A pending row with no request: the turn stopped before anyone answered (withdrawn, not decided).
  const unanswered = card.status === 'pending' && !card.pending;
  const state = card.interrupted ? 'interrupted' : unanswered ? 'not answered' : STATE_LABEL[card.status];
  const why = whyText(card);
  const command = commandOf(card);
  const isShellResult =
    command !== null && card.result !== null && (card.status === 'done' || card.status === 'failed');
  return (
    <div
      className={`tool-card tool-${card.interrupted ? 'interrupted' : card.status}`}
      data-testid="tool-card"
      data-tool={card.name}
      data-status={card.status}
      data-interrupted={card.interrupted}
    >
      {/* The head toggles the details wherever it is clicked; its button is what the keyboard reaches, named by its
          text ("write_file hello.txt, waiting for you"). The path is a link beside it, not inside it. */}
      <div className="tool-head" onClick={() => setExpanded(!expanded)} title={card.label_full} data-testid="tool-head">
        <button type="button" className="tool-toggle" aria-expanded={expanded} data-testid="tool-toggle">
          <span className="tool-chevron" aria-hidden>
            {expanded ? '▾' : '▸'}
          </span>
          {/* Read label first, then the state ("write_file hello.txt, done"); shown state first (`order` and the
              label's unseen comma in styles.css). */}
          <CodeLabel className="tool-label" kind="tool" text={card.label_full} />
          <span className="tool-state" title={card.status === 'queued' && !card.interrupted ? QUEUED_HINT : undefined}>
            {state}
          </span>
        </button>
        {card.path && (
          <a
            className="tool-path"
            href="#"
            data-testid="tool-path"
            aria-label={`Open ${card.path} in the viewer`}
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
      {why && <CodeLabel className="tool-why" text={why} data-testid="tool-why" />}
      {actions.openDiff && card.status === 'done' && card.path && FS_WRITE_TOOLS.includes(card.name) && (
        <div className="tool-diff-actions">
          <button className="small" data-testid="tool-diff" onClick={() => actions.openDiff!(card, false)}>
            Diff
          </button>
          <button className="small" data-testid="tool-revert" onClick={() => actions.openDiff!(card, true)}>
            Revert this change
          </button>
        </div>
      )}
      {SUB_AGENT_LAUNCHERS.has(card.name) && <SubAgentCard card={card} actions={actions} />}
      {DELIVERED_TOOLS.has(card.name) && <DeliveredCard card={card} />}
      {card.status === 'pending' && card.pending && <PendingPart card={card} />}
      {card.name === TN.ASK_USER_CLARIFICATION && card.status === 'done' && card.result !== null && (
        <AnsweredQuestion argumentsJson={card.arguments} result={card.result} />
      )}
      {unanswered && (
        <div className="tool-result-line" data-testid="tool-unanswered">
          The turn stopped before you answered, so nothing ran. Your next message moves on without it.
        </div>
      )}
      {card.name.startsWith(MCP_PREFIX) && (
        <McpCallExtras toolCallId={card.tool_call_id} running={card.status === 'running'} />
      )}
      {granted.map((b) => (
        <BypassBadge key={b.id} bypass={b} />
      ))}
      {card.interrupted && (
        <div className="tool-interrupted">
          Interrupted when the app stopped. <button onClick={() => actions.rerun(card)}>Re-run</button>
        </div>
      )}
      {expanded && (
        <div className="tool-body" data-testid="tool-body">
          {command !== null ? (
            <pre className="args command" data-testid="tool-command">
              $ {command}
            </pre>
          ) : (
            <pre className="args">
              {hasSealedValue(card.arguments) ? maskSealedJson(card.arguments) : card.arguments}
            </pre>
          )}
          {card.result !== null && !isShellResult && (
            <ToolCardResult card={{ ...card, result: card.result }} actions={actions} />
          )}
        </div>
      )}
      {isShellResult && <ShellOutput result={card.result!} failed={card.status === 'failed'} />}
      {card.name === TN.IMAGE_GENERATE && <ImageThumbnails card={card} actions={actions} />}
      {/* What the call returned for the model to see (read_file on an image): the person sees it too. */}
      {card.images?.length ? <MessageImages images={card.images} /> : null}
      {!expanded && !isShellResult && card.result !== null && card.status !== 'done' && (
        <div className="tool-result-line">{card.result.slice(0, 300)}</div>
      )}
    </div>
  );
}

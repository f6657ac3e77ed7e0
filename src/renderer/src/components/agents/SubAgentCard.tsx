/**
 * A sub-agent call in the chat (docs/agents.md "Sub-agents"): the agent's name and depth, the task's title, its
 * state, tokens and cost, and, expanded, its own steps streaming as they happen (its text, its tool cards with their
 * approvals, and the cards of its own sub-agents nested one level deeper). Open while it runs; the person can fold
 * it at any time, and it folds itself when it ends unless the person opened it.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { HistoryMessage, ToolCard } from '../../../../shared/contract/chat';
import { chat } from '../../stores/chat-store';
import { Markdown, StreamingMarkdown } from '../Markdown';
import type { ComponentType } from 'react';
import type { ToolCardActions } from '../tool-card-actions';

/** How one card of the child's steps is drawn: the tool card itself, handed in (it draws this card too). */
type CardView = ComponentType<{ card: ToolCard; actions: ToolCardActions }>;
import { loadSubAgent, subAgents } from './sub-agent-store';
import './agents.css';

const STATUS_TEXT = {
  running: 'working',
  done: 'done',
  cancelled: 'stopped',
  failed: 'failed',
  exhausted: 'gave up',
} as const;

function StepView({
  message,
  actions,
  CardView,
}: {
  message: HistoryMessage;
  actions: ToolCardActions;
  CardView: CardView;
}) {
  if (message.role !== 'assistant') {
    return (
      <details className="subagent-prompt" data-testid="subagent-prompt">
        <summary>Task given</summary>
        <div className="msg-text">{message.content}</div>
      </details>
    );
  }
  return (
    <div className="subagent-step" data-testid="subagent-step">
      {message.content && <Markdown text={message.content} />}
      {message.tools.map((card) => (
        <CardView key={card.tool_call_id} card={card} actions={actions} />
      ))}
    </div>
  );
}

export function SubAgentCard({
  card,
  actions,
  CardView,
}: {
  card: ToolCard;
  actions: ToolCardActions;
  CardView: CardView;
}) {
  const sessionId = useStore(chat.store, (s) => s.sessionId);
  const view = useStore(subAgents, (s) => s.byParent[card.tool_call_id]);
  const [open, setOpen] = useState<boolean | null>(null);
  useEffect(() => {
    if (!view && sessionId !== null) void loadSubAgent(sessionId, card.tool_call_id);
  }, [view, sessionId, card.tool_call_id]);
  if (!view) return null;
  const running = view.status === 'running';
  // A call of its own waits for the person (a question, an approval): say so rather than "working".
  const waiting = running && view.chat.messages.some((m) => m.tools.some((t) => t.status === 'pending' && t.pending));
  const expanded = open ?? running;
  const { stack } = view;
  // Nothing to count before its first round has answered: no "0 in · 0 out".
  const counted = stack.input_tokens + stack.output_tokens > 0;
  const usage = counted
    ? `${stack.input_tokens} in · ${stack.output_tokens} out${stack.cost !== null ? ` · $${stack.cost.toFixed(4)}` : ''}`
    : '';
  return (
    <div
      className={`subagent subagent-${view.status}`}
      data-testid="subagent-card"
      data-agent={stack.agent_id}
      data-depth={stack.depth}
      data-status={view.status}
    >
      <button
        className="subagent-head"
        onClick={() => setOpen(!expanded)}
        aria-expanded={expanded}
        data-testid="subagent-toggle"
      >
        <span className="subagent-caret" aria-hidden>
          {expanded ? '▾' : '▸'}
        </span>
        <span className="subagent-name">{stack.agent_name}</span>
        <span className="subagent-depth" title="How deep this sub-agent runs: 1 = started by the chat's agent">
          depth {stack.depth}
        </span>
        {view.title && <span className="subagent-title">{view.title}</span>}
        <span className="subagent-spacer" />
        {usage && (
          <span className="subagent-usage" data-testid="subagent-usage">
            {usage}
          </span>
        )}
        <span className={`subagent-status status-${waiting ? 'waiting' : view.status}`} data-testid="subagent-status">
          {running && !waiting && <span className="subagent-spinner" aria-hidden />}
          {waiting ? 'waiting for you' : STATUS_TEXT[view.status]}
        </span>
      </button>
      {expanded && (
        <div className="subagent-body" data-testid="subagent-body">
          {view.chat.messages.map((m) => (
            <StepView key={m.id} message={m} actions={actions} CardView={CardView} />
          ))}
          {view.chat.streaming && (view.chat.streaming.text || view.chat.streaming.reasoning) && (
            <div className="subagent-step streaming" data-testid="subagent-streaming">
              {view.chat.streaming.reasoning && <div className="reasoning">{view.chat.streaming.reasoning}</div>}
              {view.chat.streaming.text && <StreamingMarkdown deltas={view.chat.streaming.deltas} />}
            </div>
          )}
          {/* Until its first step shows (a question it waits on is a step: then it is not "starting"). */}
          {running && !view.chat.messages.some((m) => m.role === 'assistant') && !view.chat.streaming && (
            <div className="muted small">Starting…</div>
          )}
        </div>
      )}
    </div>
  );
}

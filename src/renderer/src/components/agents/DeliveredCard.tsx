/**
 * What arrived by itself in a chat (docs/scheduler.md "Delivery"): a finished `read_notification` call (a batch of
 * notifications from background runs) or `read_agent_result` call (an async task's `task_completed`). The card
 * shows them as a person reads them (who, what happened, the summary) with a link to the run's session, instead of
 * the raw JSON the model reads. A result of another shape (the model's own direct call) shows nothing extra.
 */
import type { ToolCard } from '../../../../shared/contract/chat';
import { selectSession } from '../../stores/sessions-store';

interface Notice {
  source: string;
  event_type: string;
  summary: string;
  refs?: string[];
}
interface TaskCompleted {
  type: 'task_completed';
  title: string;
  status: string;
  result: string | null;
  session_id: number | null;
}

function parse(card: ToolCard): Notice[] | TaskCompleted | null {
  if (card.status !== 'done' || !card.result) return null;
  try {
    const value: unknown = JSON.parse(card.result);
    // A batch of notifications is an array; a finished task's result is a `task_completed` object.
    if (Array.isArray(value) && value.length > 0) return value as Notice[];
    if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'task_completed')
      return value as TaskCompleted;
  } catch {
    // not ours to show: the raw result stays in the card's body
  }
  return null;
}

const sessionRef = (refs: string[] | undefined) => {
  const ref = refs?.find((r) => /^session:\d+$/.test(r));
  return ref ? Number(ref.slice('session:'.length)) : null;
};

function OpenSession({ id }: { id: number | null }) {
  if (id === null) return null;
  return (
    <button className="ghost link" data-testid="delivered-open" onClick={() => selectSession(id)}>
      Open its session
    </button>
  );
}

export function DeliveredCard({ card }: { card: ToolCard }) {
  const parsed = parse(card);
  if (!parsed) return null;
  if (!Array.isArray(parsed)) {
    return (
      <div className="delivered" data-testid="delivered-task">
        <strong>
          Task {parsed.status === 'success' ? 'finished' : parsed.status}: {parsed.title}
        </strong>
        {parsed.result && <div className="delivered-summary">{parsed.result}</div>}
        <OpenSession id={parsed.session_id} />
      </div>
    );
  }
  return (
    <ul className="delivered" data-testid="delivered-notifications">
      {parsed.map((n, i) => (
        <li key={i}>
          <strong>{n.source}</strong> <span className="muted small">{n.event_type.replace(/_/g, ' ')}</span>
          <div className="delivered-summary">{n.summary}</div>
          <OpenSession id={sessionRef(n.refs)} />
        </li>
      ))}
    </ul>
  );
}

/** A question from the agent (`ask_user_clarification`): the sanitized question, one-click suggested answers, or a typed answer. */
import { useState } from 'react';
import type { ToolCard } from '../../../shared/contract/chat';
import { skald } from '../bridge/skald';
import { Markdown } from './Markdown';

function questionOf(card: ToolCard): { title: string; question: string; suggested: string[] } {
  try {
    const args = JSON.parse(card.arguments) as { title?: unknown; question?: unknown; suggested_answers?: unknown };
    const suggested = Array.isArray(args.suggested_answers) ? args.suggested_answers.filter((a): a is string => typeof a === 'string') : [];
    return { title: String(args.title ?? 'Question'), question: String(args.question ?? ''), suggested };
  } catch {
    return { title: 'Question', question: card.arguments, suggested: [] };
  }
}

export function QuestionCard({ card }: { card: ToolCard }) {
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { title, question, suggested } = questionOf(card);
  const send = (text: string) => {
    if (!text.trim() || !card.pending) return;
    setError(null);
    skald.inbox.answerClarification({ requestId: card.pending.request_id, answer: text.trim() }).catch((e: Error) => setError(e.message));
  };
  return (
    <div className="approval" data-testid="question-card">
      <div className="approval-title">{title}</div>
      <Markdown text={question} />
      <div className="approval-actions">
        {suggested.map((s) => (
          <button key={s} onClick={() => send(s)}>{s}</button>
        ))}
        <input placeholder="Your answer" value={answer} onChange={(e) => setAnswer(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && send(answer)} aria-label="Answer" />
        <button className="primary" onClick={() => send(answer)}>Answer</button>
      </div>
      {error && <div className="error">{error}</div>}
    </div>
  );
}

/**
 * A question from the agent (`ask_user_clarification`), the same in the chat and the Inbox: the sanitized
 * question, one-click suggested answers, or a typed answer. Once answered, the chat's card keeps showing the question
 * and the answer given (`AnsweredQuestion`), without being opened.
 */
import { useRef, useState } from 'react';
import { focusBeforeRemoval } from '../lib/focus-anchor';
import { answerOfResult } from '../../../shared/clarification-answer';
import { approvals } from '../stores/approvals';
import { Markdown } from './Markdown';

export interface Question {
  requestId: number;
  title: string;
  question: string;
  suggested: string[];
}

/** The question as the model asked it, for a card whose Inbox item has not arrived yet. */
export function questionFromArguments(requestId: number, raw: string): Question {
  try {
    const args = JSON.parse(raw) as { title?: unknown; question?: unknown; suggested_answers?: unknown };
    const suggested = Array.isArray(args.suggested_answers)
      ? args.suggested_answers.filter((a): a is string => typeof a === 'string')
      : [];
    return { requestId, title: String(args.title ?? 'Question'), question: String(args.question ?? ''), suggested };
  } catch {
    return { requestId, title: 'Question', question: raw, suggested: [] };
  }
}

export function QuestionCard({ question }: { question: Question }) {
  const [answer, setAnswer] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const send = (text: string) => {
    if (!text.trim() || busy) return;
    focusBeforeRemoval(root.current);
    setError(null);
    setBusy(true);
    approvals.answer(question.requestId, text.trim()).catch((e: Error) => {
      setError(e.message);
      setBusy(false);
    });
  };
  return (
    <div className="approval" data-testid="question-card" ref={root}>
      <div className="approval-title">{question.title}</div>
      <Markdown text={question.question} />
      <div className="approval-actions">
        {question.suggested.map((s) => (
          <button key={s} disabled={busy} onClick={() => send(s)} data-testid="suggested-answer">
            {s}
          </button>
        ))}
        <input
          placeholder="Your answer"
          value={answer}
          onChange={(e) => setAnswer(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && send(answer)}
          aria-label="Answer"
        />
        <button className="primary" disabled={busy || !answer.trim()} onClick={() => send(answer)}>
          Answer
        </button>
      </div>
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

/** An answered question on its card: what was asked, and what the person answered. */
export function AnsweredQuestion({ argumentsJson, result }: { argumentsJson: string; result: string }) {
  const asked = questionFromArguments(0, argumentsJson);
  return (
    <div className="answered-question" data-testid="answered-question">
      <div className="approval-title">{asked.title}</div>
      <Markdown text={asked.question} />
      <div className="answered-question-answer" data-testid="question-answer">
        <span className="muted small">Your answer</span> {answerOfResult(result)}
      </div>
    </div>
  );
}

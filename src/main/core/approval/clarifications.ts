/**
 * The Inbox's questions to the person (the agent's ask_user_clarification; docs/chat-ui.md). They share the approvals'
 * id sequence and tool-row flip (request-ledger.ts); the Inbox (pending.ts) owns both kinds and delegates questions
 * here. An answer given while no turn waits (after a restart) is kept for the resumed turn's next ask of that call.
 */
import type { InboxClarification, InboxEvent } from '../../../shared/contract/inbox';
import type { SessionApprovalEvent, Waiter } from './approval-card';
import { ApprovalCancelledError, type PendingToolRow, type RequestLedger } from './request-ledger';

export interface ClarificationInput {
  sessionId: number;
  toolCallId: string;
  title: string;
  question: string;
  suggestedAnswers: string[];
  /** Who asks, when it is not the session's own agent (a sub-agent): shown in the Inbox. */
  contextLabel?: string | null;
}

interface ClarificationItem extends InboxClarification {
  waiter: Waiter<string> | null;
}

export interface ClarificationDeps {
  ledger: RequestLedger;
  emitSession: (sessionId: number, event: SessionApprovalEvent) => void;
  emitInbox: (event: InboxEvent) => void;
  /** An answer arrived for a question no turn waits on: the Inbox tells the session layer. */
  answeredWithoutWaiter: (e: { sessionId: number; toolCallId: string; requestId: number }) => void;
  now: () => number;
}

export class Clarifications {
  private readonly items = new Map<number, ClarificationItem>();
  private readonly earlyAnswers = new Map<string, { requestId: number; answer: string }>();

  constructor(private readonly deps: ClarificationDeps) {}

  request(input: ClarificationInput): { requestId: number; result: Promise<string> } {
    const early = this.earlyAnswers.get(input.toolCallId);
    if (early) {
      this.earlyAnswers.delete(input.toolCallId);
      return { requestId: early.requestId, result: Promise.resolve(early.answer) };
    }
    let item = [...this.items.values()].find((c) => c.tool_call_id === input.toolCallId) ?? null;
    if (item?.waiter) {
      this.drop(item, 'superseded', new ApprovalCancelledError(item.request_id));
      item = null;
    }
    if (!item) {
      const at = this.deps.now();
      const requestId = this.deps.ledger.openWaiting('clarification', input.toolCallId, input.sessionId, null, at);
      item = {
        request_id: requestId,
        session_id: input.sessionId,
        tool_call_id: input.toolCallId,
        title: input.title,
        question: input.question,
        suggested_answers: input.suggestedAnswers,
        context_label: input.contextLabel ?? this.deps.ledger.defaultLabel(input.sessionId),
        created_at: at,
        waiter: null,
      };
      this.items.set(requestId, item);
      this.deps.emitInbox({ type: 'clarification_requested', request_id: requestId, title: item.title });
    }
    const target = item;
    const result = new Promise<string>((resolve, reject) => (target.waiter = { resolve, reject }));
    this.deps.emitSession(target.session_id, {
      type: 'agent_question',
      request_id: target.request_id,
      tool_call_id: target.tool_call_id,
      status: 'pending',
      title: target.title,
      question: target.question,
      suggested_answers: target.suggested_answers,
    });
    return { requestId: target.request_id, result };
  }

  answer(requestId: number, answer: string): { toolCallId: string; sessionId: number } {
    const item = this.items.get(requestId);
    if (!item) throw this.deps.ledger.missing(requestId, 'clarification');
    this.items.delete(requestId);
    this.deps.ledger.close(requestId, 'answered', this.deps.now());
    if (item.waiter) item.waiter.resolve(answer);
    else {
      this.earlyAnswers.set(item.tool_call_id, { requestId, answer });
      this.deps.answeredWithoutWaiter({ sessionId: item.session_id, toolCallId: item.tool_call_id, requestId });
    }
    this.deps.emitInbox({ type: 'clarification_resolved', request_id: requestId });
    return { toolCallId: item.tool_call_id, sessionId: item.session_id };
  }

  /** Withdraws one question (its turn's abort signal fired); unknown ids are not questions and are left alone. */
  cancel(requestId: number): void {
    const c = this.items.get(requestId);
    if (c) this.drop(c, 'cancelled', new ApprovalCancelledError(requestId));
  }

  cancelForSession(sessionId: number): void {
    for (const c of [...this.items.values()])
      if (c.session_id === sessionId) this.drop(c, 'cancelled', new ApprovalCancelledError(c.request_id));
  }

  /** After a restart: a `pending` ask_user_clarification row comes back under a new id, no one waiting yet. */
  reRegister(row: PendingToolRow, at: number): void {
    const args = row.args;
    const requestId = this.deps.ledger.open('clarification', row.tool_call_id, row.session_id, null, at);
    const suggested = Array.isArray(args.suggested_answers)
      ? args.suggested_answers.filter((s): s is string => typeof s === 'string')
      : [];
    this.items.set(requestId, {
      request_id: requestId,
      session_id: row.session_id,
      tool_call_id: row.tool_call_id,
      title: String(args.title ?? 'Question'),
      question: String(args.question ?? ''),
      suggested_answers: suggested,
      context_label: this.deps.ledger.defaultLabel(row.session_id),
      created_at: at,
      waiter: null,
    });
    this.deps.emitInbox({
      type: 'clarification_requested',
      request_id: requestId,
      title: String(args.title ?? 'Question'),
    });
  }

  has(toolCallId: string): boolean {
    return [...this.items.values()].some((c) => c.tool_call_id === toolCallId);
  }

  ids(): number[] {
    return [...this.items.keys()];
  }

  list(): InboxClarification[] {
    return [...this.items.values()].sort((a, b) => a.request_id - b.request_id).map(({ waiter: _w, ...rest }) => rest);
  }

  private drop(item: ClarificationItem, status: 'cancelled' | 'superseded', error: Error): void {
    this.items.delete(item.request_id);
    this.deps.ledger.close(item.request_id, status, this.deps.now());
    item.waiter?.reject(error);
    this.deps.emitInbox({ type: 'request_withdrawn', request_id: item.request_id, tool_call_id: item.tool_call_id });
  }
}

/**
 * Pending approvals and clarifications: the Inbox (docs/chat-ui.md, docs/approval.md
 * "Approval binding"; checks I6, X7 in docs/security-checks.md).
 * - One id sequence for both, from the `approval_requests` ledger (request-ledger.ts), so a decided id can never be
 *   replayed and ids of the two kinds never collide; questions are kept by clarifications.ts, cards drawn by
 *   approval-card.ts.
 * - Before anyone waits, the tool row is flipped to `pending` (same transaction as the ledger row), through the
 *   session store, the one writer of tool rows (`toolRows`, a port the composition root fills with it).
 * - Resolving names the args hash that was shown; other arguments, an unknown or an already decided id fail.
 * - A waiter dropped by /stop or its abort signal rejects with ApprovalCancelledError; the row stays `pending`.
 * - After a restart `reRegisterPendingFromDb` lists every `pending` row again under a new id. Such an item has no
 *   waiter until the resumed turn asks again for the same tool_call_id; a decision made before that is kept and
 *   handed to that request (if the hash still matches), and `onDidResolveWithoutWaiter` tells the session layer.
 * - A timeout (off by default for interactive use) resolves to a rejection (X7).
 * Limits: in memory besides the ledger; the session-scoped events are plain objects the session layer forwards.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { InboxApproval, InboxClarification, InboxEvent } from '../../../shared/contract/inbox';
import type { SandboxChoice, SandboxLine } from '../../../shared/contract/sandbox';
import { TN, type ToolCategory } from '../../../shared/tool-names';
import type { Preview } from '../tools/tool';
import type { Db } from '../db/database';
import type { BypassKind, BypassOption, BypassStore } from './bypass';
import type { ApprovalOutcome } from './decisions';
import { argsHash as hashOf } from './decisions';
import {
  type ApprovalItem,
  type SessionApprovalEvent,
  newApprovalItem,
  offered,
  pendingEvent,
  sandboxChoice,
  shown,
} from './approval-card';
import { type ClarificationInput, Clarifications } from './clarifications';
import { ApprovalCancelledError, RequestLedger, type ToolRowStatusWriter } from './request-ledger';

export type { ApprovalOutcome } from './decisions';

export interface ApprovalRequestInput {
  sessionId: number;
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  argsHash: string;
  category: ToolCategory | null;
  agentId: string;
  source: string;
  contextLabel?: string | null;
  /** The tool's own dry run (a diff, a command line, or the refusal it would give); shapes the card. */
  preview?: Preview | null;
  /** Overrides the manager's default; null = wait for ever. */
  timeoutMs?: number | null;
}

export interface PendingDeps {
  db: Db;
  /** The tool rows' one writer (the session store): an approval only ever flips its row to `pending`. */
  toolRows: ToolRowStatusWriter;
  bypass: BypassStore;
  workspaceDir: string;
  emitSession: (sessionId: number, event: SessionApprovalEvent) => void;
  emitInbox: (event: InboxEvent) => void;
  /** Category of a tool name, for items re-registered after a restart. */
  categoryOf?: (toolName: string) => ToolCategory | null;
  /** The bypass scopes a card may offer for a call, narrowest first (bypass.ts `optionsFor`). */
  bypassOptions: (call: {
    toolName: string;
    category: ToolCategory | null;
    args: Record<string, unknown>;
  }) => BypassOption[];
  /** Default wait before an unanswered approval counts as rejected; null (default) = wait for ever. */
  timeoutMs?: number | null;
  /**
   * Where a command runs, in the card's words (the sandbox's `cardLine`): drawn each time the card is listed, so it
   * follows the sandbox's probe and the person's setting. Absent: a command's card says nothing of it.
   */
  sandboxLine?: (workingDir: string) => SandboxLine;
  now?: () => number;
}

export function rejectText(note: string): string {
  const reason = note.trim();
  return reason ? `User rejected this tool call. Reason: ${reason}` : 'User rejected this tool call.';
}

export class PendingManager {
  private readonly approvals = new Map<number, ApprovalItem>();
  private readonly clarifications: Clarifications;
  /** Decisions taken while no turn waited (after a restart): handed to the next request for that call. */
  private readonly early = new Map<string, { requestId: number; argsHash: string; outcome: ApprovalOutcome }>();
  private readonly orphanListeners = new Set<
    (e: { sessionId: number; toolCallId: string; requestId: number }) => void
  >();
  private readonly now: () => number;
  private readonly ledger: RequestLedger;

  constructor(private readonly deps: PendingDeps) {
    this.now = deps.now ?? Date.now;
    this.ledger = new RequestLedger(deps.db, deps.toolRows);
    this.clarifications = new Clarifications({
      ledger: this.ledger,
      emitSession: deps.emitSession,
      emitInbox: deps.emitInbox,
      answeredWithoutWaiter: (e) => this.notifyOrphan(e),
      now: this.now,
    });
  }

  /** Flips the row to `pending`, registers the item, emits the events; `result` settles on the human's answer. */
  requestApproval(input: ApprovalRequestInput): { requestId: number; result: Promise<ApprovalOutcome> } {
    const decided = this.early.get(input.toolCallId);
    if (decided) {
      this.early.delete(input.toolCallId);
      if (decided.argsHash === input.argsHash)
        return { requestId: decided.requestId, result: Promise.resolve(decided.outcome) };
    }
    const existing = this.findApproval(input.toolCallId);
    if (existing && !existing.waiter && existing.args_hash === input.argsHash) {
      // A re-registered item: the resumed turn takes it over under the same id (its row waits again: the gate's
      // second look marked it running).
      this.deps.toolRows.setToolStatus(input.toolCallId, 'pending');
      Object.assign(existing, {
        ...(input.preview ? shown(input.preview, input.toolName) : {}),
        tool_category: input.category,
        bypass_options: this.deps.bypassOptions({
          toolName: input.toolName,
          category: input.category,
          args: input.args,
        }),
      });
      return { requestId: existing.request_id, result: this.wait(existing, input.timeoutMs) };
    }
    if (existing) this.withdraw(existing, 'superseded');

    const at = this.now();
    const requestId = this.ledger.openWaiting('approval', input.toolCallId, input.sessionId, input.argsHash, at);
    const item = newApprovalItem({
      requestId,
      sessionId: input.sessionId,
      toolCallId: input.toolCallId,
      toolName: input.toolName,
      args: input.args,
      argsHash: input.argsHash,
      agentId: input.agentId,
      source: input.source,
      contextLabel: input.contextLabel ?? this.ledger.defaultLabel(input.sessionId),
      at,
      category: input.category,
      preview: input.preview ?? null,
      bypassOptions: this.deps.bypassOptions({ toolName: input.toolName, category: input.category, args: input.args }),
    });
    this.approvals.set(requestId, item);
    const result = this.wait(item, input.timeoutMs);
    this.deps.emitInbox({
      type: 'approval_requested',
      request_id: requestId,
      tool_call_id: item.tool_call_id,
      tool_name: item.tool_name,
    });
    return { requestId, result };
  }

  /** The human's answer. Throws a BridgeError (nothing changes) for an unknown, decided or mismatched request. */
  resolve(
    requestId: number,
    input: {
      action: 'approve' | 'reject';
      note?: string;
      argsHash: string;
      bypassSecs?: number;
      bypassScope?: BypassKind;
      sandbox?: SandboxChoice;
    },
  ): { toolCallId: string; sessionId: number; approved: boolean } {
    const item = this.approvals.get(requestId);
    if (!item) throw this.ledger.missing(requestId, 'approval');
    if (input.argsHash !== item.args_hash) {
      throw new BridgeError(
        'args_mismatch',
        'These are not the arguments that were shown for approval; the call needs a new approval.',
      );
    }
    const approved = input.action === 'approve';
    const sandbox =
      approved && input.sandbox
        ? sandboxChoice(item, this.lineOf(item.sandbox_dir), input.sandbox, input.bypassSecs)
        : undefined;
    const option = approved && input.bypassSecs !== undefined ? offered(item, input.bypassScope) : null;
    const expiresAt =
      input.bypassSecs === 0 || input.bypassSecs === undefined ? null : this.now() + input.bypassSecs * 1000;
    const bypass = option
      ? this.deps.bypass.grant(item.session_id, option.scope, expiresAt, item.tool_call_id)
      : undefined;
    this.settle(
      item,
      { approved, note: input.note ?? '', ...(bypass ? { bypass } : {}), ...(sandbox ? { sandbox } : {}) },
      approved ? 'approved' : 'rejected',
    );
    return { toolCallId: item.tool_call_id, sessionId: item.session_id, approved };
  }

  requestClarification(input: ClarificationInput): { requestId: number; result: Promise<string> } {
    return this.clarifications.request(input);
  }

  answerClarification(requestId: number, answer: string): { toolCallId: string; sessionId: number } {
    return this.clarifications.answer(requestId, answer);
  }

  /** Withdraws one request (its turn's abort signal fired). The row stays `pending`. */
  cancel(requestId: number): void {
    const item = this.approvals.get(requestId);
    if (item) this.withdraw(item, 'cancelled');
    this.clarifications.cancel(requestId);
  }

  /** The session ended or was stopped: every waiter of it rejects, its bypasses go. */
  cancelForSession(sessionId: number): void {
    for (const item of [...this.approvals.values()])
      if (item.session_id === sessionId) this.withdraw(item, 'cancelled');
    this.clarifications.cancelForSession(sessionId);
    this.deps.bypass.clearSession(sessionId);
  }

  /** After a restart: every `pending` row comes back into the Inbox under a new id (old open ids are superseded). */
  reRegisterPendingFromDb(): number {
    const rows = this.ledger.pendingToolRows();
    // Ids of an earlier run can never be answered again; ids this manager still holds stay open.
    this.ledger.supersedeAllBut([...this.approvals.keys(), ...this.clarifications.ids()], this.now());
    let count = 0;
    for (const row of rows) {
      if (this.findApproval(row.tool_call_id) || this.clarifications.has(row.tool_call_id)) continue;
      const at = this.now();
      if (row.name === TN.ASK_USER_CLARIFICATION) {
        this.clarifications.reRegister(row, at);
      } else {
        const { args } = row;
        const hash = row.args_hash ?? hashOf(args);
        const requestId = this.ledger.open('approval', row.tool_call_id, row.session_id, hash, at);
        const category = this.deps.categoryOf?.(row.name) ?? null;
        this.approvals.set(
          requestId,
          newApprovalItem({
            requestId,
            sessionId: row.session_id,
            toolCallId: row.tool_call_id,
            toolName: row.name,
            args,
            argsHash: hash,
            agentId: row.agent_id,
            source: row.source,
            contextLabel: this.ledger.defaultLabel(row.session_id),
            at,
            category,
            preview: null,
            bypassOptions: this.deps.bypassOptions({ toolName: row.name, category, args }),
          }),
        );
        this.deps.emitInbox({
          type: 'approval_requested',
          request_id: requestId,
          tool_call_id: row.tool_call_id,
          tool_name: row.name,
        });
      }
      count++;
    }
    return count;
  }

  /**
   * The tool and the arguments (secret values still sealed) of an approval that is pending now; refuses one that
   * was decided, withdrawn, is a question, or never existed (the reveal of a secret argument, docs/plugins.md).
   */
  pendingCall(requestId: number): { toolName: string; args: Record<string, unknown> } {
    const item = this.approvals.get(requestId);
    if (!item) throw this.ledger.missing(requestId, 'approval');
    return { toolName: item.tool_name, args: item.args };
  }

  list(): { total: number; approvals: InboxApproval[]; clarifications: InboxClarification[] } {
    const approvals = [...this.approvals.values()]
      .sort((a, b) => a.request_id - b.request_id)
      .map(({ waiter, timer: _timer, args: _args, preview_path: _where, sandbox_dir, ...rest }) => ({
        ...rest,
        sandbox: this.lineOf(sandbox_dir),
        live: waiter !== null,
      }));
    const clarifications = this.clarifications.list();
    return { total: approvals.length + clarifications.length, approvals, clarifications };
  }

  /** A decision or answer arrived for an item no turn waits on (after a restart): the session may resume. */
  onDidResolveWithoutWaiter(
    listener: (e: { sessionId: number; toolCallId: string; requestId: number }) => void,
  ): () => void {
    this.orphanListeners.add(listener);
    return () => this.orphanListeners.delete(listener);
  }

  private wait(item: ApprovalItem, timeoutMs: number | null | undefined): Promise<ApprovalOutcome> {
    const result = new Promise<ApprovalOutcome>((resolve, reject) => (item.waiter = { resolve, reject }));
    const ms = timeoutMs === undefined ? (this.deps.timeoutMs ?? null) : timeoutMs;
    if (ms !== null) {
      item.timer = setTimeout(() => {
        if (this.approvals.get(item.request_id) !== item) return;
        this.settle(
          item,
          {
            approved: false,
            note: `No answer within ${Math.round(ms / 1000)} s; treated as a rejection.`,
            timedOut: true,
          },
          'timeout',
        );
      }, ms);
      item.timer.unref?.();
    }
    this.deps.emitSession(item.session_id, pendingEvent(item));
    return result;
  }

  private settle(item: ApprovalItem, outcome: ApprovalOutcome, status: 'approved' | 'rejected' | 'timeout'): void {
    this.approvals.delete(item.request_id);
    if (item.timer) clearTimeout(item.timer);
    this.ledger.close(item.request_id, status, this.now());
    if (item.waiter) item.waiter.resolve(outcome);
    else {
      this.early.set(item.tool_call_id, { requestId: item.request_id, argsHash: item.args_hash, outcome });
      this.notifyOrphan({ sessionId: item.session_id, toolCallId: item.tool_call_id, requestId: item.request_id });
    }
    this.deps.emitInbox({
      type: 'approval_resolved',
      request_id: item.request_id,
      tool_call_id: item.tool_call_id,
      approved: outcome.approved,
    });
  }

  private withdraw(item: ApprovalItem, status: 'cancelled' | 'superseded'): void {
    this.approvals.delete(item.request_id);
    if (item.timer) clearTimeout(item.timer);
    this.ledger.close(item.request_id, status, this.now());
    item.waiter?.reject(new ApprovalCancelledError(item.request_id));
    // Not a decision: the Inbox drops the item (the row stays `pending` and is asked again on resume).
    this.deps.emitInbox({ type: 'request_withdrawn', request_id: item.request_id, tool_call_id: item.tool_call_id });
  }

  private notifyOrphan(e: { sessionId: number; toolCallId: string; requestId: number }): void {
    for (const l of this.orphanListeners) l(e);
  }

  private findApproval(toolCallId: string): ApprovalItem | null {
    for (const item of this.approvals.values()) if (item.tool_call_id === toolCallId) return item;
    return null;
  }

  private lineOf(dir: string | null): SandboxLine | null {
    return dir === null || !this.deps.sandboxLine ? null : this.deps.sandboxLine(dir);
  }
}

/**
 * Pending approvals and clarifications: the Inbox (docs/chat-ui.md, docs/approval.md
 * "Approval binding"; checks I6, X7 in docs/security-checks.md).
 * - One id sequence for both, from the `approval_requests` ledger (AUTOINCREMENT: never reused, even across
 *   restarts), so a decided id can never be replayed and ids of the two kinds never collide.
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
import type { ChatEventBody } from '../../../shared/contract/chat';
import type { InboxApproval, InboxClarification, InboxEvent } from '../../../shared/contract/approval';
import { TN, parseMcpToolName, type ToolCategory } from '../../../shared/tool-names';
import type { Preview, ToolDbStatus } from '../tools/tool';
import type { Db } from '../db/database';
import { UNFINISHED_TOOLS } from '../db/session-rows';
import type { BypassKind, BypassOption, BypassStore } from './bypass';
import type { ApprovalOutcome } from './decisions';
import type { SandboxChoice, SandboxLine } from '../../../shared/contract/sandbox';
import type { SandboxDecision } from '../sandbox/decision';
import { argsHash as hashOf } from './decisions';

/** What the session's chat hears of a request: that it waits. Its answer arrives as the call's `tool_decision`. */
export type SessionApprovalEvent = Extract<
  ChatEventBody,
  { type: 'approval_required' | 'pending_write' | 'agent_question' }
>;

export type { ApprovalOutcome } from './decisions';

export class ApprovalCancelledError extends Error {
  override readonly name = 'ApprovalCancelledError';
  constructor(readonly requestId: number) {
    super(`Request ${requestId} was withdrawn before anyone answered.`);
  }
}

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

export interface ClarificationInput {
  sessionId: number;
  toolCallId: string;
  title: string;
  question: string;
  suggestedAnswers: string[];
  /** Who asks, when it is not the session's own agent (a sub-agent): shown in the Inbox. */
  contextLabel?: string | null;
}

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

interface ApprovalItem extends Omit<InboxApproval, 'live' | 'sandbox'> {
  /** The command runs in the sandbox for a session working here; the card's line is drawn when listed. */
  sandbox_dir: string | null;
  args: Record<string, unknown>;
  /** Where the preview's diff or command line goes on the card (`src/a.ts`, `$ execute_cmd`); null = no preview. */
  preview_path: string | null;
  waiter: Waiter<ApprovalOutcome> | null;
  timer: ReturnType<typeof setTimeout> | null;
}

interface ClarificationItem extends InboxClarification {
  waiter: Waiter<string> | null;
}

/** The part of the tool rows' one writer (session/session-store.ts) the Inbox uses; core/index.ts passes the store. */
export interface ToolRowStatusWriter {
  setToolStatus(toolCallId: string, status: ToolDbStatus): void;
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

/** What an item shows of a preview: old/new text and where (a diff or a command line), or the tool's refusal. */
function shown(
  preview: Preview | null,
  toolName: string,
): Pick<ApprovalItem, 'preview_path' | 'old_content' | 'new_content' | 'refusal' | 'sandbox_dir'> {
  if (preview?.kind === 'diff')
    return {
      preview_path: preview.path,
      old_content: preview.oldContent,
      new_content: preview.newContent,
      refusal: null,
      sandbox_dir: null,
    };
  if (preview?.kind === 'command')
    return {
      preview_path: `$ ${toolName}`,
      old_content: null,
      new_content: preview.text,
      refusal: null,
      sandbox_dir: preview.sandboxedIn ?? null,
    };
  return {
    preview_path: null,
    old_content: null,
    new_content: null,
    refusal: preview?.kind === 'refused' ? preview.reason : null,
    sandbox_dir: null,
  };
}

export function rejectText(note: string): string {
  const reason = note.trim();
  return reason ? `User rejected this tool call. Reason: ${reason}` : 'User rejected this tool call.';
}

export class PendingManager {
  private readonly approvals = new Map<number, ApprovalItem>();
  private readonly clarifications = new Map<number, ClarificationItem>();
  /** Decisions taken while no turn waited (after a restart): handed to the next request for that call. */
  private readonly early = new Map<string, { requestId: number; argsHash: string; outcome: ApprovalOutcome }>();
  private readonly earlyAnswers = new Map<string, { requestId: number; answer: string }>();
  private readonly orphanListeners = new Set<
    (e: { sessionId: number; toolCallId: string; requestId: number }) => void
  >();
  private readonly now: () => number;
  private readonly q;

  constructor(private readonly deps: PendingDeps) {
    this.now = deps.now ?? Date.now;
    const db = deps.db;
    this.q = {
      open: db.prepare(
        `INSERT INTO approval_requests (kind, tool_call_id, session_id, args_hash, created_at) VALUES (?, ?, ?, ?, ?)`,
      ),
      close: db.prepare(
        `UPDATE approval_requests SET resolved_at = ?, outcome = ? WHERE id = ? AND resolved_at IS NULL`,
      ),
      ledger: db.prepare(`SELECT kind, resolved_at, outcome FROM approval_requests WHERE id = ?`),
      label: db.prepare(`SELECT source, title FROM chat_sessions WHERE id = ?`),
    };
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
    const requestId = this.deps.db.transaction(() => {
      this.deps.toolRows.setToolStatus(input.toolCallId, 'pending');
      return Number(this.q.open.run('approval', input.toolCallId, input.sessionId, input.argsHash, at).lastInsertRowid);
    })();
    const item: ApprovalItem = {
      request_id: requestId,
      session_id: input.sessionId,
      tool_call_id: input.toolCallId,
      tool_name: input.toolName,
      arguments: JSON.stringify(input.args),
      args: input.args,
      args_hash: input.argsHash,
      agent_id: input.agentId,
      source: input.source,
      context_label: input.contextLabel ?? this.defaultLabel(input.sessionId),
      created_at: at,
      tool_category: input.category,
      mcp_server: parseMcpToolName(input.toolName)?.server ?? null,
      ...shown(input.preview ?? null, input.toolName),
      bypass_options: this.deps.bypassOptions({ toolName: input.toolName, category: input.category, args: input.args }),
      waiter: null,
      timer: null,
    };
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
    if (!item) throw this.missing(requestId, 'approval');
    if (input.argsHash !== item.args_hash) {
      throw new BridgeError(
        'args_mismatch',
        'These are not the arguments that were shown for approval; the call needs a new approval.',
      );
    }
    const approved = input.action === 'approve';
    const sandbox = approved && input.sandbox ? this.sandboxChoice(item, input.sandbox, input.bypassSecs) : undefined;
    const option = approved && input.bypassSecs !== undefined ? this.offered(item, input.bypassScope) : null;
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
    const early = this.earlyAnswers.get(input.toolCallId);
    if (early) {
      this.earlyAnswers.delete(input.toolCallId);
      return { requestId: early.requestId, result: Promise.resolve(early.answer) };
    }
    let item = [...this.clarifications.values()].find((c) => c.tool_call_id === input.toolCallId) ?? null;
    if (item?.waiter) {
      this.dropClarification(item, 'superseded', new ApprovalCancelledError(item.request_id));
      item = null;
    }
    if (!item) {
      const at = this.now();
      const requestId = this.deps.db.transaction(() => {
        this.deps.toolRows.setToolStatus(input.toolCallId, 'pending');
        return Number(this.q.open.run('clarification', input.toolCallId, input.sessionId, null, at).lastInsertRowid);
      })();
      item = {
        request_id: requestId,
        session_id: input.sessionId,
        tool_call_id: input.toolCallId,
        title: input.title,
        question: input.question,
        suggested_answers: input.suggestedAnswers,
        context_label: input.contextLabel ?? this.defaultLabel(input.sessionId),
        created_at: at,
        waiter: null,
      };
      this.clarifications.set(requestId, item);
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

  answerClarification(requestId: number, answer: string): { toolCallId: string; sessionId: number } {
    const item = this.clarifications.get(requestId);
    if (!item) throw this.missing(requestId, 'clarification');
    this.clarifications.delete(requestId);
    this.q.close.run(this.now(), 'answered', requestId);
    if (item.waiter) item.waiter.resolve(answer);
    else {
      this.earlyAnswers.set(item.tool_call_id, { requestId, answer });
      for (const l of this.orphanListeners) l({ sessionId: item.session_id, toolCallId: item.tool_call_id, requestId });
    }
    this.deps.emitInbox({ type: 'clarification_resolved', request_id: requestId });
    return { toolCallId: item.tool_call_id, sessionId: item.session_id };
  }

  /** Withdraws one request (its turn's abort signal fired). The row stays `pending`. */
  cancel(requestId: number): void {
    const item = this.approvals.get(requestId);
    if (item) this.withdraw(item, 'cancelled');
    const c = this.clarifications.get(requestId);
    if (c) this.dropClarification(c, 'cancelled', new ApprovalCancelledError(requestId));
  }

  /** The session ended or was stopped: every waiter of it rejects, its bypasses go. */
  cancelForSession(sessionId: number): void {
    for (const item of [...this.approvals.values()])
      if (item.session_id === sessionId) this.withdraw(item, 'cancelled');
    for (const c of [...this.clarifications.values()])
      if (c.session_id === sessionId) this.dropClarification(c, 'cancelled', new ApprovalCancelledError(c.request_id));
    this.deps.bypass.clearSession(sessionId);
  }

  /** After a restart: every `pending` row comes back into the Inbox under a new id (old open ids are superseded). */
  reRegisterPendingFromDb(): number {
    const db = this.deps.db;
    const rows = db
      .prepare(`SELECT t.tool_call_id, t.session_id, t.name, t.arguments, t.effective_arguments, t.args_hash, s.agent_id, s.source
                FROM chat_llm_tools t JOIN chat_sessions s ON s.id = t.session_id WHERE t.${UNFINISHED_TOOLS} AND t.status = 'pending' ORDER BY t.id`)
      .all() as {
      tool_call_id: string;
      session_id: number;
      name: string;
      arguments: string;
      effective_arguments: string | null;
      args_hash: string | null;
      agent_id: string;
      source: string;
    }[];
    // Ids of an earlier run can never be answered again; ids this manager still holds stay open.
    const live = JSON.stringify([...this.approvals.keys(), ...this.clarifications.keys()]);
    db.prepare(
      `UPDATE approval_requests SET resolved_at = ?, outcome = 'superseded' WHERE resolved_at IS NULL AND id NOT IN (SELECT value FROM json_each(?))`,
    ).run(this.now(), live);
    let count = 0;
    for (const row of rows) {
      if (
        this.findApproval(row.tool_call_id) ||
        [...this.clarifications.values()].some((c) => c.tool_call_id === row.tool_call_id)
      )
        continue;
      const args = parseObject(row.effective_arguments ?? row.arguments);
      const at = this.now();
      if (row.name === TN.ASK_USER_CLARIFICATION) {
        const requestId = Number(
          this.q.open.run('clarification', row.tool_call_id, row.session_id, null, at).lastInsertRowid,
        );
        const suggested = Array.isArray(args.suggested_answers)
          ? args.suggested_answers.filter((s): s is string => typeof s === 'string')
          : [];
        this.clarifications.set(requestId, {
          request_id: requestId,
          session_id: row.session_id,
          tool_call_id: row.tool_call_id,
          title: String(args.title ?? 'Question'),
          question: String(args.question ?? ''),
          suggested_answers: suggested,
          context_label: this.defaultLabel(row.session_id),
          created_at: at,
          waiter: null,
        });
        this.deps.emitInbox({
          type: 'clarification_requested',
          request_id: requestId,
          title: String(args.title ?? 'Question'),
        });
      } else {
        const hash = row.args_hash ?? hashOf(args);
        const requestId = Number(
          this.q.open.run('approval', row.tool_call_id, row.session_id, hash, at).lastInsertRowid,
        );
        this.approvals.set(requestId, {
          request_id: requestId,
          session_id: row.session_id,
          tool_call_id: row.tool_call_id,
          tool_name: row.name,
          arguments: JSON.stringify(args),
          args,
          args_hash: hash,
          agent_id: row.agent_id,
          source: row.source,
          context_label: this.defaultLabel(row.session_id),
          created_at: at,
          tool_category: this.deps.categoryOf?.(row.name) ?? null,
          mcp_server: parseMcpToolName(row.name)?.server ?? null,
          ...shown(null, row.name),
          bypass_options: this.deps.bypassOptions({
            toolName: row.name,
            category: this.deps.categoryOf?.(row.name) ?? null,
            args,
          }),
          waiter: null,
          timer: null,
        });
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
    if (!item) throw this.missing(requestId, 'approval');
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
    const clarifications = [...this.clarifications.values()]
      .sort((a, b) => a.request_id - b.request_id)
      .map(({ waiter: _w, ...rest }) => rest);
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
    this.deps.emitSession(item.session_id, this.pendingEvent(item));
    return result;
  }

  /**
   * Shaped by the tool's preview, never by its name: a diff or a command line → pending_write (old/new, or
   * `$ <command>` under the path `$ <tool>`); no preview or a refusal → approval_required (the full arguments).
   */
  private pendingEvent(item: ApprovalItem): SessionApprovalEvent {
    const base = {
      request_id: item.request_id,
      tool_call_id: item.tool_call_id,
      status: 'pending' as const,
      args_hash: item.args_hash,
    };
    if (item.preview_path !== null && item.new_content !== null) {
      return {
        type: 'pending_write',
        ...base,
        path: item.preview_path,
        old_content: item.old_content,
        new_content: item.new_content,
      };
    }
    return { type: 'approval_required', ...base, tool_name: item.tool_name, arguments: item.arguments };
  }

  private settle(item: ApprovalItem, outcome: ApprovalOutcome, status: 'approved' | 'rejected' | 'timeout'): void {
    this.approvals.delete(item.request_id);
    if (item.timer) clearTimeout(item.timer);
    this.q.close.run(this.now(), status, item.request_id);
    if (item.waiter) item.waiter.resolve(outcome);
    else {
      this.early.set(item.tool_call_id, { requestId: item.request_id, argsHash: item.args_hash, outcome });
      for (const l of this.orphanListeners)
        l({ sessionId: item.session_id, toolCallId: item.tool_call_id, requestId: item.request_id });
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
    this.q.close.run(this.now(), status, item.request_id);
    item.waiter?.reject(new ApprovalCancelledError(item.request_id));
    // Not a decision: the Inbox drops the item (the row stays `pending` and is asked again on resume).
    this.deps.emitInbox({ type: 'request_withdrawn', request_id: item.request_id, tool_call_id: item.tool_call_id });
  }

  private dropClarification(item: ClarificationItem, status: 'cancelled' | 'superseded', error: Error): void {
    this.clarifications.delete(item.request_id);
    this.q.close.run(this.now(), status, item.request_id);
    item.waiter?.reject(error);
    this.deps.emitInbox({ type: 'request_withdrawn', request_id: item.request_id, tool_call_id: item.tool_call_id });
  }

  private findApproval(toolCallId: string): ApprovalItem | null {
    for (const item of this.approvals.values()) if (item.tool_call_id === toolCallId) return item;
    return null;
  }

  /**
   * The person's "with network" or "outside the sandbox" (docs/approval.md "The sandbox on the card"): for this call
   * alone, so never with a bypass (a bypass never lifts the sandbox), and only for a call whose card offered it (a
   * command; "with network" only where the sandbox runs).
   */
  private sandboxChoice(item: ApprovalItem, choice: SandboxChoice, bypassSecs: number | undefined): SandboxDecision {
    const words = choice === 'network' ? 'with network' : 'outside the sandbox';
    const line = this.lineOf(item.sandbox_dir);
    if (line === null)
      throw new BridgeError('invalid_input', `${item.tool_name} runs no command: it cannot be approved ${words}.`);
    if (bypassSecs !== undefined)
      throw new BridgeError(
        'invalid_input',
        `Approving ${words} is for this call only; it cannot start a bypass. Approve it once, or approve with a bypass in the sandbox.`,
      );
    if (choice === 'unconfined') return { mode: 'unconfined' };
    if (line.state !== 'sandboxed')
      throw new BridgeError('invalid_input', `The sandbox does not run here, so there is no network to grant in it.`);
    return { mode: 'sandboxed', network: true };
  }

  private lineOf(dir: string | null): SandboxLine | null {
    return dir === null || !this.deps.sandboxLine ? null : this.deps.sandboxLine(dir);
  }

  /** Only a scope the card offered for this very call can be granted; none named = the narrowest (the default). */
  private offered(item: ApprovalItem, kind: BypassKind | undefined): BypassOption {
    const option = kind === undefined ? item.bypass_options[0] : item.bypass_options.find((o) => o.scope.kind === kind);
    if (!option && !item.bypass_options.length)
      throw new BridgeError(
        'invalid_input',
        `No bypass is offered for ${item.tool_name}: it asks every time; approve it once.`,
      );
    if (!option)
      throw new BridgeError(
        'invalid_input',
        `A bypass of scope "${kind}" is not offered for ${item.tool_name}; choose one of: ${item.bypass_options.map((o) => o.scope.kind).join(', ')}.`,
      );
    return option;
  }

  private missing(requestId: number, kind: 'approval' | 'clarification'): BridgeError {
    const row = this.q.ledger.get(requestId) as
      | { kind: string; resolved_at: number | null; outcome: string | null }
      | undefined;
    if (row && row.kind !== kind)
      return new BridgeError(
        'not_found',
        `Request ${requestId} is a ${row.kind}, not ${kind === 'approval' ? 'an approval' : 'a clarification'}.`,
      );
    if (row?.resolved_at)
      return new BridgeError(
        'already_decided',
        `Request ${requestId} was already decided (${row.outcome}); it cannot be decided again.`,
      );
    return new BridgeError('not_found', `There is no pending ${kind} ${requestId}.`);
  }

  private defaultLabel(sessionId: number): string | null {
    const s = this.q.label.get(sessionId) as { source: string; title: string } | undefined;
    if (!s) return null;
    return s.source === 'cron' ? `CronJob: ${s.title}` : s.title || null;
  }
}

function parseObject(raw: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

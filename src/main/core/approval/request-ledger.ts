/**
 * The Inbox's rows in the database (docs/approval.md "Approval binding"; check I6 in docs/security-checks.md): the
 * `approval_requests` ledger gives approvals and clarifications one id sequence (AUTOINCREMENT: never reused, even
 * across restarts), so a decided id can never be replayed and ids of the two kinds never collide; it also names why an
 * id cannot be answered (unknown, the other kind, already decided). Before anyone waits, the call's tool row is
 * flipped to `pending` in the same transaction, through the session store, the one writer of tool rows (`toolRows`,
 * a port the composition root fills with it). Also what the Inbox reads of other tables: a
 * session's label, and after a restart the tool rows still `pending`.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { Db } from '../db/database';
import { UNFINISHED_TOOLS } from '../db/session-rows';
import type { ToolDbStatus } from '../tools/tool';

/** A waiter dropped by /stop or its abort signal rejects with this; the row stays `pending`. */
export class ApprovalCancelledError extends Error {
  override readonly name = 'ApprovalCancelledError';
  constructor(readonly requestId: number) {
    super(`Request ${requestId} was withdrawn before anyone answered.`);
  }
}

/** The part of the tool rows' one writer (the session store) the Inbox uses; core/index.ts passes the store. */
export interface ToolRowStatusWriter {
  setToolStatus(toolCallId: string, status: ToolDbStatus): void;
}

/** A tool row still `pending` after a restart, with its session's agent and source. */
export interface PendingToolRow {
  tool_call_id: string;
  session_id: number;
  name: string;
  arguments: string;
  effective_arguments: string | null;
  args_hash: string | null;
  agent_id: string;
  source: string;
  /** The arguments the call runs with (`effective_arguments`, else `arguments`); not an object = none. */
  args: Record<string, unknown>;
}

export class RequestLedger {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly toolRows: ToolRowStatusWriter,
  ) {
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

  /** A new request id. */
  open(
    kind: 'approval' | 'clarification',
    toolCallId: string,
    sessionId: number,
    argsHash: string | null,
    at: number,
  ): number {
    return Number(this.q.open.run(kind, toolCallId, sessionId, argsHash, at).lastInsertRowid);
  }

  /** A new request id, its tool row flipped to `pending` in the same transaction, before anyone waits. */
  openWaiting(...request: Parameters<RequestLedger['open']>): number {
    const toolCallId = request[1];
    return this.db.transaction(() => {
      this.toolRows.setToolStatus(toolCallId, 'pending');
      return this.open(...request);
    })();
  }

  /** Closes a request that is still open (a closed one keeps its first outcome). */
  close(requestId: number, outcome: string, at: number): void {
    this.q.close.run(at, outcome, requestId);
  }

  /** Why `requestId` cannot be answered as a `kind`: the other kind, already decided, or unknown. */
  missing(requestId: number, kind: 'approval' | 'clarification'): BridgeError {
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

  /** The Inbox label of a session's items: `CronJob: <title>` for a scheduled run, else its title. */
  defaultLabel(sessionId: number): string | null {
    const s = this.q.label.get(sessionId) as { source: string; title: string } | undefined;
    if (!s) return null;
    return s.source === 'cron' ? `CronJob: ${s.title}` : s.title || null;
  }

  /** Every tool row still `pending` (after a restart), oldest first. */
  pendingToolRows(): PendingToolRow[] {
    const rows = this.db
      .prepare(`SELECT t.tool_call_id, t.session_id, t.name, t.arguments, t.effective_arguments, t.args_hash, s.agent_id, s.source
                FROM chat_llm_tools t JOIN chat_sessions s ON s.id = t.session_id WHERE t.${UNFINISHED_TOOLS} AND t.status = 'pending' ORDER BY t.id`)
      .all() as Omit<PendingToolRow, 'args'>[];
    return rows.map((row) => ({ ...row, args: parseObject(row.effective_arguments ?? row.arguments) }));
  }

  /** Closes as `superseded` every open request but `live` (ids of an earlier run can never be answered again). */
  supersedeAllBut(live: number[], at: number): void {
    this.db
      .prepare(
        `UPDATE approval_requests SET resolved_at = ?, outcome = 'superseded' WHERE resolved_at IS NULL AND id NOT IN (SELECT value FROM json_each(?))`,
      )
      .run(at, JSON.stringify(live));
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

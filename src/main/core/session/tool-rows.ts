/**
 * The tool rows (`chat_llm_tools`) and their one writer (docs/architecture.md "Persistence"; check C4 in
 * docs/security-checks.md). The session store (session-store.ts) holds one and answers for it: callers go through
 * the store, which writes a round's rows in the transaction of its message.
 *
 * A tool row's key (`tool_call_id`) is minted here, never taken from the model: providers and local servers reuse
 * their call ids across rounds and sessions. The provider's id (`provider_call_id`) is kept for replaying the
 * history to the model and is unique only within its assistant message.
 */
import { randomUUID } from 'node:crypto';
import type { ChatImage } from '../../../shared/contract/chat';
import type { ToolCall } from '../../../shared/tool-call';
import type { Db } from '../db/database';
import {
  HISTORY_SQL,
  UNFINISHED_TOOLS,
  uniqueWithinMessage,
  type NewChatImage,
  type ToolPrep,
  type ToolRow,
} from '../db/session-rows';
import type { ToolDbStatus } from '../tools/tool';
import type { ChatImageRows } from './chat-image-rows';

export class ToolRows {
  private readonly q;
  /** Every tool row key this store mints starts with it: random, one per store (`mintToolKey`). */
  private readonly keyPrefix = `tc_${randomUUID()}_`;
  private keysMinted = 0;

  constructor(
    db: Db,
    private readonly images: ChatImageRows,
  ) {
    this.q = {
      failSessionTools: db.prepare(
        `UPDATE chat_llm_tools SET status = 'failed', result = ?, updated_at = ? WHERE session_id = ? AND ${UNFINISHED_TOOLS}`,
      ),
      insertTool: db.prepare(
        `INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, stack_id, message_id, name, arguments, status, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
      ),
      // A round's row written as the gate's commit leaves it (`running`, with its decision): no second statement.
      insertPreparedTool: db.prepare(
        `INSERT INTO chat_llm_tools (tool_call_id, provider_call_id, session_id, stack_id, message_id, name, arguments, status, effective_arguments, args_hash, decision_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)`,
      ),
      toolsFrom: db.prepare(HISTORY_SQL.toolsFrom),
      getTool: db.prepare('SELECT * FROM chat_llm_tools WHERE tool_call_id = ?'),
      updateToolPrep: db.prepare(
        "UPDATE chat_llm_tools SET effective_arguments = ?, args_hash = ?, decision_id = ?, status = 'running', updated_at = ? WHERE tool_call_id = ?",
      ),
      setToolStatus: db.prepare('UPDATE chat_llm_tools SET status = ?, updated_at = ? WHERE tool_call_id = ?'),
      setToolDecision: db.prepare(
        'UPDATE chat_llm_tools SET status = ?, decision_id = ?, updated_at = ? WHERE tool_call_id = ?',
      ),
      finishTool: db.prepare(
        'UPDATE chat_llm_tools SET status = ?, result = ?, result_type = ?, updated_at = ? WHERE tool_call_id = ?',
      ),
      // The session's own unfinished calls; a sub-agent's are ended with its stack (agents/stack-store.ts).
      activeTools: db.prepare(
        `SELECT * FROM chat_llm_tools WHERE ${UNFINISHED_TOOLS} AND stack_id IS NULL ORDER BY id`,
      ),
      failStackTools: db.prepare(
        `UPDATE chat_llm_tools SET status = 'failed', result = ?, updated_at = ? WHERE stack_id IS NOT NULL AND ${UNFINISHED_TOOLS}`,
      ),
    };
  }

  /**
   * One row per call of a round, keyed by `keys`, `queued` (none has started) except the call whose gate decision
   * this commit holds (`prepared`), written `running` with it. A provider id that is empty or repeats within this
   * message gets a suffix so the replayed history still pairs every call with its own result. Only inside the
   * caller's transaction (SessionStore.insertRoundTools, writeRound).
   */
  insertTools(
    sessionId: number,
    messageId: number,
    calls: readonly ToolCall[],
    stackId: number | null,
    keys: readonly string[],
    prepared?: { key: string; prep: ToolPrep },
  ): string[] {
    const now = Date.now();
    const providerIds = uniqueWithinMessage(calls.map((c) => c.id));
    return calls.map((call, i) => {
      const key = keys[i]!;
      if (prepared?.key === key) {
        const { prep } = prepared;
        this.q.insertPreparedTool.run(
          key,
          providerIds[i],
          sessionId,
          stackId,
          messageId,
          call.name,
          call.arguments,
          prep.effectiveArguments,
          prep.argsHash,
          prep.decisionId,
          now,
          now,
        );
      } else {
        this.q.insertTool.run(key, providerIds[i], sessionId, stackId, messageId, call.name, call.arguments, now, now);
      }
      return key;
    });
  }

  /**
   * A new tool row key: the app's own, unique in the database (never the model's id, which models reuse): this store's
   * random prefix (another process's store, or an earlier run's, has its own) and a count. A random UUID per key cost
   * a call about 10 µs of its waited-on path after an idle (docs/performance.md "What keeps the waited-on paths fast").
   */
  mintToolKey(): string {
    return `${this.keyPrefix}${(this.keysMinted++).toString(36)}`;
  }

  /** A background run a crash interrupted: its unfinished calls end `failed` (the run is re-run whole, never resumed). */
  failUnfinishedInSession(sessionId: number, note: string): number {
    return this.q.failSessionTools.run(note, Date.now(), sessionId).changes;
  }

  getTool(toolCallId: string): ToolRow | undefined {
    return this.q.getTool.get(toolCallId) as ToolRow | undefined;
  }

  /**
   * The call reached the gate: its normalized arguments and their hash, and it is `running` from here (it may still
   * wait for a person, `pending`). Its decision goes to the audit (approval/decisions.ts) in the same transaction,
   * and the row points at it.
   */
  prepareTool(toolCallId: string, prep: ToolPrep): void {
    this.q.updateToolPrep.run(prep.effectiveArguments, prep.argsHash, prep.decisionId, Date.now(), toolCallId);
  }

  setToolStatus(toolCallId: string, status: ToolDbStatus): void {
    this.q.setToolStatus.run(status, Date.now(), toolCallId);
  }

  /** A later decision of the call (a person's answer): its status and the pointer to that audit row, in its transaction. */
  setToolDecision(toolCallId: string, status: ToolDbStatus, decisionId: number): void {
    this.q.setToolDecision.run(status, decisionId, Date.now(), toolCallId);
  }

  finishTool(toolCallId: string, status: ToolDbStatus, result: string, resultType: 'string' | 'json' = 'string'): void {
    this.q.finishTool.run(status, result, resultType, Date.now(), toolCallId);
  }

  /**
   * The images a call returned (read_file on an image file), kept under the message of the call: only inside the
   * transaction of its result. Returns them as the chat lists them (none where the row has no message).
   */
  addToolImages(toolCallId: string, images: readonly NewChatImage[]): ChatImage[] {
    const row = this.getTool(toolCallId);
    if (!row || row.message_id === null || images.length === 0) return [];
    this.images.insert(row.session_id, row.message_id, images, Date.now(), toolCallId);
    return this.images.listed(row.session_id, row.message_id, row.message_id).byCall.get(toolCallId) ?? [];
  }

  /** After a crash: a sub-agent's unfinished calls end `failed` (its stack is re-run whole, never resumed). */
  failUnfinishedStackTools(note: string): void {
    this.q.failStackTools.run(note, Date.now());
  }

  activeTools(): ToolRow[] {
    return this.q.activeTools.all() as ToolRow[];
  }

  /** The session's (or a stack's) tool rows from `fromMessageId` on, in order. */
  toolsFromMessage(sessionId: number, fromMessageId: number, stackId: number | null = null): ToolRow[] {
    return this.q.toolsFrom.all(sessionId, stackId, fromMessageId) as ToolRow[];
  }
}

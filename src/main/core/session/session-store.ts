/**
 * The sessions' persistence: sessions, history rows and tool rows (docs/architecture.md). Every write is one
 * statement or one transaction; statements are prepared once. Timestamps are epoch milliseconds. The tool rows'
 * statements and their keys are tool-rows.ts's, held here: callers reach them through this store.
 */
import type { ChatImage } from '../../../shared/contract/chat';
import type { ToolCall } from '../../../shared/tool-call';
import type { Db } from '../db/database';
import type { ToolDbStatus } from '../tools/tool';
import { ChatImageRows } from './chat-image-rows';
import { ToolRows } from './tool-rows';
import {
  HISTORY_SQL,
  type MessageRow,
  type NewChatImage,
  type NewBackgroundSession,
  type NewMessage,
  type SessionRow,
  type ToolPrep,
  type ToolRow,
} from '../db/session-rows';

// The row shapes and the history reads' SQL live in db/session-rows.ts; callers keep importing them from here.
export * from '../db/session-rows';

/**
 * A new session's id: above every id in the table and every id ever deleted (db/migrations/118-session-ids-never-reused.ts),
 * so an id the audit or a bypass grant still names is never another session's.
 */
const NEXT_SESSION_ID =
  "(SELECT max(coalesce((SELECT max(id) FROM chat_sessions), 0), coalesce((SELECT last_id FROM id_high_water WHERE name = 'chat_sessions'), 0)) + 1)";

export class SessionStore {
  private readonly q;
  /** The images of people's messages and of tools' results (chat-image-rows.ts): written only here, with them. */
  readonly images: ChatImageRows;
  /** One transaction wrapper, made once (a savepoint when a caller's transaction is already open). */
  private readonly inTransaction: <T>(work: () => T) => T;
  /** The connection's own level (db/database.ts), put back after each commit written without an fsync. */
  private readonly syncLevel: number;
  /** The tool rows' one writer (tool-rows.ts). */
  private readonly tools: ToolRows;

  constructor(private readonly db: Db) {
    const run = db.transaction((work: () => unknown) => work());
    this.inTransaction = <T>(work: () => T) => run(work) as T;
    this.syncLevel = Number(db.pragma('synchronous', { simple: true }));
    this.images = new ChatImageRows(db);
    this.tools = new ToolRows(db, this.images);
    this.q = {
      insertSession: db.prepare(
        `INSERT INTO chat_sessions (id, title, run_context, created_at, updated_at) VALUES (${NEXT_SESSION_ID}, ?, ?, ?, ?)`,
      ),
      getSession: db.prepare(
        'SELECT id, title, source, agent_id, is_interactive, run_context, model, context_start_id, updated_at, pinned_at FROM chat_sessions WHERE id = ?',
      ),
      // Background runs (async tasks, scheduled runs) are opened from the Schedules page, not listed with the chats.
      listSessions: db.prepare(
        'SELECT id, title, source, agent_id, is_interactive, run_context, model, context_start_id, updated_at, pinned_at FROM chat_sessions WHERE is_interactive = 1 ORDER BY updated_at DESC, id DESC',
      ),
      insertBackground: db.prepare(
        `INSERT INTO chat_sessions (id, title, source, agent_id, is_interactive, is_ephemeral, run_context, model, parent_session_id, created_at, updated_at)
         VALUES (${NEXT_SESSION_ID}, @title, @source, @agentId, 0, 1, @runContext, @model, @parentSessionId, @now, @now)`,
      ),
      deleteBackground: db.prepare(
        'DELETE FROM chat_sessions WHERE id = ? AND is_interactive = 0 AND is_ephemeral = 1',
      ),
      deleteChat: db.prepare('DELETE FROM chat_sessions WHERE id = ? AND is_interactive = 1'),
      // A new title is not news: the list stays in the order of the chats' last activity.
      rename: db.prepare('UPDATE chat_sessions SET title = ? WHERE id = ?'),
      setPinned: db.prepare('UPDATE chat_sessions SET pinned_at = ? WHERE id = ?'),
      setRunContext: db.prepare('UPDATE chat_sessions SET run_context = ?, updated_at = ? WHERE id = ?'),
      setModel: db.prepare('UPDATE chat_sessions SET model = ?, updated_at = ? WHERE id = ?'),
      setContextStart: db.prepare('UPDATE chat_sessions SET context_start_id = ?, updated_at = ? WHERE id = ?'),
      touch: db.prepare('UPDATE chat_sessions SET updated_at = ? WHERE id = ?'),
      // Positional parameters: binding an object looks each name up, on every message of every round.
      insertMessage: db.prepare(
        `INSERT INTO chat_history (session_id, stack_id, role, content, status, input_tokens, output_tokens, cost, model, reasoning_content, metadata, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      getMessage: db.prepare('SELECT * FROM chat_history WHERE id = ?'),
      deleteMessage: db.prepare('DELETE FROM chat_history WHERE id = ?'),
      queued: db.prepare(
        "SELECT * FROM chat_history WHERE session_id = ? AND json_extract(metadata, '$.queued') = 1 ORDER BY id",
      ),
      failQueued: db.prepare(
        "UPDATE chat_history SET status = 'failed', metadata = json_set(metadata, '$.queued', 0, '$.dropped', 1) WHERE session_id = ? AND json_extract(metadata, '$.queued') = 1",
      ),
      unqueue: db.prepare(
        "UPDATE chat_history SET metadata = json_set(metadata, '$.queued', 0) WHERE session_id = ? AND json_extract(metadata, '$.queued') = 1",
      ),
      // The largest id of the session's entries in the session-and-stack index (sub-agents' rows included): read from
      // the index alone, then one row.
      lastMessage: db.prepare(
        'SELECT * FROM chat_history WHERE id = (SELECT max(id) FROM chat_history WHERE session_id = ?)',
      ),
      failMessage: db.prepare("UPDATE chat_history SET status = 'failed' WHERE id = ?"),
      // A sub-agent's rows carry their stack id: each stack (and the session's own rows, stack NULL) is its own history.
      contextMessages: db.prepare(
        "SELECT * FROM chat_history WHERE session_id = ? AND id >= ? AND stack_id IS ? AND coalesce(json_extract(metadata, '$.queued'), 0) = 0 AND status = 'ok' ORDER BY id",
      ),
      // The person's newest message of the chat's own stack that was sent (not withdrawn, not replaced).
      newestUser: db.prepare(
        "SELECT * FROM chat_history INDEXED BY chat_history_session_stack WHERE session_id = ? AND stack_id IS NULL AND role = 'user' AND status = 'ok' ORDER BY id DESC LIMIT 1",
      ),
      markReplaced: db.prepare(
        "UPDATE chat_history SET status = 'failed', metadata = json_set(coalesce(metadata, '{}'), '$.replaced', 1) WHERE session_id = ? AND stack_id IS NULL AND id >= ?",
      ),
      page: db.prepare(HISTORY_SQL.page),
      toolsForMessages: db.prepare(HISTORY_SQL.toolsForMessages),
      recentContext: db.prepare(HISTORY_SQL.recentContext),
      usage: db.prepare(
        "SELECT coalesce(sum(input_tokens), 0) AS input, coalesce(sum(output_tokens), 0) AS output, coalesce(sum(cost), 0) AS cost, count(cost) AS priced FROM chat_history WHERE session_id = ? AND role = 'assistant'",
      ),
    };
  }

  createSession(title = '', runContext: object | null = null): number {
    const now = Date.now();
    return Number(
      this.q.insertSession.run(title, runContext ? JSON.stringify(runContext) : null, now, now).lastInsertRowid,
    );
  }

  /**
   * A background run's session (docs/scheduler.md): not interactive (no person watches it; its approvals wait in
   * the Inbox), ephemeral (deleted with its run after the retention), the job's agent, model and run context;
   * `parentSessionId` only for an async task (it shares that session's scratchpad).
   */
  createBackgroundSession(s: NewBackgroundSession): number {
    const info = this.q.insertBackground.run({
      title: s.title,
      source: s.source,
      agentId: s.agentId,
      runContext: s.runContext ? JSON.stringify(s.runContext) : null,
      model: s.model,
      parentSessionId: s.parentSessionId,
      now: Date.now(),
    });
    return Number(info.lastInsertRowid);
  }

  /** Deletes background sessions (with their rows, by cascade); an interactive session is never deleted here. */
  deleteBackgroundSessions(ids: readonly number[]): number {
    return this.db.transaction(() => ids.reduce((n, id) => n + this.q.deleteBackground.run(id).changes, 0))();
  }

  /**
   * Deletes a chat the person chose to delete: its rows go with it by cascade, in one transaction (the foreign keys of
   * chat_history, chat_llm_tools, stacks, notes, grants and summaries); the approval audit, which names the session by
   * id only, keeps its decisions. False when no chat has that id (a background session is never deleted here).
   */
  deleteChat(id: number): boolean {
    return this.db.transaction(() => this.q.deleteChat.run(id).changes > 0)();
  }

  getSession(id: number): SessionRow | undefined {
    return this.q.getSession.get(id) as SessionRow | undefined;
  }

  listSessions(): SessionRow[] {
    return this.q.listSessions.all() as SessionRow[];
  }

  rename(id: number, title: string): void {
    this.q.rename.run(title, id);
  }

  /** Pins the chat (now) or unpins it; its `updated_at` stays: pinning is not activity. */
  setPinned(id: number, pinned: boolean): void {
    this.q.setPinned.run(pinned ? Date.now() : null, id);
  }

  setRunContext(id: number, runContext: object): void {
    this.q.setRunContext.run(JSON.stringify(runContext), Date.now(), id);
  }

  setModel(id: number, model: string | null): void {
    this.q.setModel.run(model, Date.now(), id);
  }

  /** `/clear`: the model's context starts after this point; the rows stay (nothing is lost). */
  setContextStart(id: number, fromMessageId: number): void {
    this.q.setContextStart.run(fromMessageId, Date.now(), id);
  }

  /** The message and the session's `updated_at` in one commit (a savepoint inside a caller's transaction). */
  appendMessage(m: NewMessage): number {
    return this.inTransaction(() => this.insertMessage(m));
  }

  /** `touch`: the session's `updated_at` follows (a tool round's message leaves it: `writeRound`). */
  private insertMessage(m: NewMessage, touch = true): number {
    const now = Date.now();
    const info = this.q.insertMessage.run(
      m.sessionId,
      m.stackId ?? null,
      m.role,
      m.content,
      m.status ?? 'ok',
      m.inputTokens ?? null,
      m.outputTokens ?? null,
      m.cost ?? null,
      m.model ?? null,
      m.reasoning ?? null,
      m.queued ? '{"queued":1}' : '{"queued":0}', // JSON.stringify({ queued }), spelled out: one per message
      now,
    );
    if (touch) this.q.touch.run(now, m.sessionId);
    const id = Number(info.lastInsertRowid);
    if (m.images?.length) this.images.insert(m.sessionId, id, m.images, now);
    return id;
  }

  getMessage(id: number): MessageRow | undefined {
    return this.q.getMessage.get(id) as MessageRow | undefined;
  }

  lastMessage(sessionId: number): MessageRow | undefined {
    return this.q.lastMessage.get(sessionId) as MessageRow | undefined;
  }

  failMessage(id: number): void {
    this.q.failMessage.run(id);
  }

  /**
   * Injects the messages queued during a turn at a round boundary: each is re-inserted (new id, so it sits after
   * the round that was running when it arrived) in one transaction. Returns old → new ids.
   */
  injectQueued(sessionId: number): { oldId: number; newId: number; content: string }[] {
    return this.db.transaction(() => {
      const rows = this.q.queued.all(sessionId) as MessageRow[];
      return rows.map((row) => {
        const newId = this.appendMessage({ sessionId, role: row.role, content: row.content });
        this.images.move(row.id, newId); // before the old row goes: its delete would take them by cascade
        this.q.deleteMessage.run(row.id);
        return { oldId: row.id, newId, content: row.content };
      });
    })();
  }

  /** `/stop` drops messages not yet injected: kept, marked failed, never sent to the model. */
  dropQueued(sessionId: number): void {
    this.q.failQueued.run(sessionId);
  }

  /** After a restart a queued message simply becomes part of the history. */
  unqueueAll(sessionId: number): void {
    this.q.unqueue.run(sessionId);
  }

  newestUserMessage(sessionId: number): MessageRow | undefined {
    return this.q.newestUser.get(sessionId) as MessageRow | undefined;
  }

  /** Regenerate / Edit (replace-exchange.ts): the chat's own rows from `fromId` on leave the model's context; kept. */
  markReplaced(sessionId: number, fromId: number): void {
    this.q.markReplaced.run(sessionId, fromId);
  }

  /** The rows a request may replay from `fromId` (sent, not queued, not replaced), oldest first. */
  contextMessages(sessionId: number, fromId: number, stackId: number | null = null): MessageRow[] {
    return this.q.contextMessages.all(sessionId, fromId, stackId) as MessageRow[];
  }

  /**
   * The newest `limit` rows since `fromId` that a model request may replay, oldest first: what `contextMessages`
   * gives without the queued rows and the person's failed messages, cut to its tail without reading the rest.
   */
  recentContextMessages(sessionId: number, fromId: number, limit: number, stackId: number | null = null): MessageRow[] {
    return this.q.recentContext.all(sessionId, stackId, fromId, limit) as MessageRow[];
  }

  /** A page of history, newest last, with the tool rows of those messages. */
  page(
    sessionId: number,
    beforeId: number,
    limit: number,
    stackId: number | null = null,
  ): { messages: MessageRow[]; tools: ToolRow[]; hasMore: boolean } {
    const rows = (this.q.page.all(sessionId, stackId, beforeId, limit + 1) as MessageRow[]).reverse();
    const hasMore = rows.length > limit;
    const messages = hasMore ? rows.slice(1) : rows;
    if (messages.length === 0) return { messages, tools: [], hasMore };
    const tools = this.q.toolsForMessages.all(sessionId, stackId, messages[0]!.id, messages.at(-1)!.id) as ToolRow[];
    return { messages, tools, hasMore };
  }

  /**
   * The rows of one round's calls, in order, in one transaction (a crash mid-round leaves every call's intent on
   * disk or none), each `queued`: none has started. Returns each call's new key.
   */
  insertRoundTools(
    sessionId: number,
    messageId: number,
    calls: readonly ToolCall[],
    stackId: number | null = null,
    keys: readonly string[] = calls.map(() => this.mintToolKey()),
  ): string[] {
    return this.inTransaction(() => this.tools.insertTools(sessionId, messageId, calls, stackId, keys));
  }

  /**
   * A live round's rows (docs/architecture.md "The path of one tool call"): its assistant message unless it is on
   * disk already (`message` is then its id), and one row per call, keyed by `keys`: `queued`, except the call whose
   * gate decision this commit holds (`prepared`), written `running` with it. Written straight into the caller's
   * transaction (no savepoint of their own: the round's first commit holds them with the first call's decision);
   * outside one, in a transaction of its own. Returns the message's id.
   * The message leaves the session's `updated_at` as it is: the person's message moved it as the turn began and the
   * turn's answer moves it as it ends, and the round's commit writes one page less (docs/architecture.md "What keeps
   * the waited-on paths fast").
   */
  writeRound(
    sessionId: number,
    message: number | NewMessage,
    calls: readonly ToolCall[],
    stackId: number | null,
    keys: readonly string[],
    prepared?: { key: string; prep: ToolPrep },
  ): number {
    if (!this.db.inTransaction)
      return this.inTransaction(() => this.writeRound(sessionId, message, calls, stackId, keys, prepared));
    const messageId = typeof message === 'number' ? message : this.insertMessage(message, false);
    this.tools.insertTools(sessionId, messageId, calls, stackId, keys, prepared);
    return messageId;
  }

  // The tool rows, written by their one writer (tool-rows.ts; each method's comment is there).
  mintToolKey(): string {
    return this.tools.mintToolKey();
  }

  getTool(toolCallId: string): ToolRow | undefined {
    return this.tools.getTool(toolCallId);
  }

  prepareTool(toolCallId: string, prep: ToolPrep): void {
    this.tools.prepareTool(toolCallId, prep);
  }

  setToolStatus(toolCallId: string, status: ToolDbStatus): void {
    this.tools.setToolStatus(toolCallId, status);
  }

  setToolDecision(toolCallId: string, status: ToolDbStatus, decisionId: number): void {
    this.tools.setToolDecision(toolCallId, status, decisionId);
  }

  finishTool(toolCallId: string, status: ToolDbStatus, result: string, resultType: 'string' | 'json' = 'string'): void {
    this.tools.finishTool(toolCallId, status, result, resultType);
  }

  addToolImages(toolCallId: string, images: readonly NewChatImage[]): ChatImage[] {
    return this.tools.addToolImages(toolCallId, images);
  }

  failUnfinishedInSession(sessionId: number, note: string): number {
    return this.tools.failUnfinishedInSession(sessionId, note);
  }

  failUnfinishedStackTools(note: string): void {
    this.tools.failUnfinishedStackTools(note);
  }

  activeTools(): ToolRow[] {
    return this.tools.activeTools();
  }

  toolsFromMessage(sessionId: number, fromMessageId: number, stackId: number | null = null): ToolRow[] {
    return this.tools.toolsFromMessage(sessionId, fromMessageId, stackId);
  }

  usage(sessionId: number): { input: number; output: number; cost: number; priced: number } {
    return this.q.usage.get(sessionId) as { input: number; output: number; cost: number; priced: number };
  }

  /**
   * `work` in one transaction. `fsync: false` commits it without an fsync (docs/architecture.md "Durability follows
   * consequence"): a crash of the app never loses it (it is in the write-ahead log the operating system holds), an
   * operating-system crash or power loss before the connection's next fsync'd commit may roll it back. The level
   * is switched around the commit alone, with nothing asynchronous in between, so no other commit runs unsynced.
   * `oneStatement`: `work` writes with one statement, which SQLite commits as its own transaction, as atomic and as
   * durable, without the BEGIN and COMMIT statements of ours around it (two steps fewer on a tool call's waited-on
   * path: docs/performance.md "What keeps the waited-on paths fast").
   * Inside a caller's transaction the caller's commit decides.
   */
  transaction<T>(work: () => T, options?: { fsync?: boolean; oneStatement?: boolean }): T {
    if (this.db.inTransaction) return this.inTransaction(work);
    const alone = options?.oneStatement === true;
    if (options?.fsync !== false) return alone ? work() : this.inTransaction(work);
    // Not a prepared statement: SQLite applies this pragma as it compiles it, and running it again does nothing.
    this.db.exec('PRAGMA synchronous = NORMAL');
    try {
      return alone ? work() : this.inTransaction(work);
    } finally {
      this.db.exec(`PRAGMA synchronous = ${this.syncLevel}`);
    }
  }
}

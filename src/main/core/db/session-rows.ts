/**
 * The rows of the sessions' tables as the store reads them, the shapes it is given to write, and the SQL text of the
 * reads of a history page and of the model's context (docs/architecture.md), and how a round's calls get ids a
 * request can pair results with. No writes: the one writer of these tables is SessionStore (session/session-store.ts),
 * which re-exports all of this. Here, below the services, so those that read these rows or their unfinished calls
 * (approval, the scheduler, rewind, the viewer) do not import the session (docs/architecture.md "Layers inside the core").
 */
import type { NewChatImage } from '../../../shared/chat-images';
import { UNFINISHED_TOOL_STATUSES } from '../../../shared/tool-call';
import type { ToolDbStatus } from '../tools/tool';

export interface SessionRow {
  id: number;
  title: string;
  source: string;
  agent_id: string;
  is_interactive: number;
  run_context: string | null;
  model: string | null;
  context_start_id: number;
  updated_at: number;
  /** When the person pinned the chat (migration 122); null = not pinned. */
  pinned_at: number | null;
}

export interface MessageRow {
  id: number;
  session_id: number;
  role: 'user' | 'assistant' | 'agent';
  content: string;
  status: 'ok' | 'failed';
  input_tokens: number | null;
  output_tokens: number | null;
  cost: number | null;
  model: string | null;
  reasoning_content: string | null;
  metadata: string | null;
  created_at: number;
}

export interface ToolRow {
  id: number;
  /** The app's key for the call (events, approvals, decisions, cards); unique in the database. */
  tool_call_id: string;
  /** The id the model gave the call; unique only within its assistant message (`message_id`). */
  provider_call_id: string;
  session_id: number;
  message_id: number | null;
  name: string;
  arguments: string;
  effective_arguments: string | null;
  args_hash: string | null;
  status: ToolDbStatus;
  result: string | null;
  result_type: 'string' | 'json';
  /** Legacy copy of the decision, no longer written: read `latest_decision`. */
  decision: string | null;
  /** The id of the call's latest row of `tool_decisions` (a pointer, not a copy); null before the gate saw it. */
  decision_id: number | null;
  /** The latest decision of the call as JSON (from `tool_decisions`); null before the gate saw it. */
  latest_decision?: string | null;
  created_at: number;
}

/** A background run's session as the scheduler asks for it (session-store.ts `createBackgroundSession`). */
export interface NewBackgroundSession {
  title: string;
  source: string;
  agentId: string;
  runContext: object | null;
  model: string | null;
  parentSessionId: number | null;
}

export interface NewMessage {
  sessionId: number;
  role: MessageRow['role'];
  content: string;
  status?: MessageRow['status'];
  queued?: boolean;
  reasoning?: string | null;
  inputTokens?: number | null;
  outputTokens?: number | null;
  cost?: number | null;
  model?: string | null;
  /** The child stack a sub-agent's row belongs to; absent/null = the session's own (depth 0) rows. */
  stackId?: number | null;
  /** A person's images, stored with the message in its transaction (session/chat-image-rows.ts); checked already. */
  images?: readonly NewChatImage[];
}

export type { NewChatImage };

/**
 * The call's latest decision, read from the one place decisions are stored (`tool_decisions`, the audit), in the
 * contract's Decision shape: the row the tool row points at (`decision_id`, migration 116), by its primary key.
 * (The old `chat_llm_tools.decision` column is no longer written.)
 */
const LATEST_DECISION = `(SELECT json_object('action', d.action, 'why', json_object('kind', d.reason_kind, 'ruleId', d.rule_id, 'text', d.detail), 'actor', d.actor)
   FROM tool_decisions d WHERE d.id = t.decision_id) AS latest_decision`;

/**
 * The condition of the calls not yet ended, spelled as the partial index `chat_llm_tools_active` (migration 117)
 * spells it: SQLite uses a partial index only for a query that repeats its condition, so every read of unfinished
 * calls includes this text (a query for one of these statuses adds it beside its own).
 */
export const UNFINISHED_TOOLS = `status IN (${UNFINISHED_TOOL_STATUSES.map((s) => `'${s}'`).join(', ')})`;

/**
 * The reads of a history page and of the model's context. Each goes straight to its range through an index
 * (migration 111): a page costs the same at the top of a 50,000-message session as at its end
 * (docs/performance.md "Performance targets"; the plans are checked in history-queries.test.ts). `INDEXED BY` is
 * SQLite's assertion for a time-sensitive query: statistics (ANALYZE) cannot tempt the planner into a walk over
 * other sessions' rows, and a schema change that drops the index fails loudly instead of going slow.
 */
export const HISTORY_SQL = {
  page: 'SELECT * FROM chat_history INDEXED BY chat_history_session_stack WHERE session_id = ? AND stack_id IS ? AND id < ? ORDER BY id DESC LIMIT ?',
  toolsForMessages: `SELECT t.*, ${LATEST_DECISION} FROM chat_llm_tools t INDEXED BY chat_llm_tools_session_message WHERE t.session_id = ? AND t.stack_id IS ? AND t.message_id BETWEEN ? AND ? ORDER BY t.id`,
  toolsFrom: `SELECT t.*, ${LATEST_DECISION} FROM chat_llm_tools t INDEXED BY chat_llm_tools_session_message WHERE t.session_id = ? AND t.stack_id IS ? AND t.message_id >= ? ORDER BY t.id`,
  /**
   * The newest `limit` rows a model request may replay: not queued, and sent (`failed`: a message of the person's a
   * stop withdrew, or a row a Regenerate or Edit replaced, session/replace-exchange.ts).
   */
  recentContext: `SELECT * FROM (SELECT * FROM chat_history INDEXED BY chat_history_session_stack
     WHERE session_id = ? AND stack_id IS ? AND id >= ? AND coalesce(json_extract(metadata, '$.queued'), 0) = 0 AND status = 'ok'
     ORDER BY id DESC LIMIT ?) ORDER BY id`,
} as const;

/**
 * What the gate's commit writes on a call's row (docs/architecture.md "The path of one tool call"): its normalized
 * arguments, their hash, and the id of its decision's audit row (`recordDecision`, in the same transaction).
 */
export interface ToolPrep {
  effectiveArguments: string;
  argsHash: string;
  decisionId: number;
}

/** `['a', 'a', '']` → `['a', 'a_2', 'call_3']`: ids a request can pair results with unambiguously. */
export function uniqueWithinMessage(ids: readonly string[]): string[] {
  if (ids.length === 1 && ids[0] !== '') return ids.slice(); // one call, one id: nothing can repeat
  const seen = new Set<string>();
  return ids.map((raw, i) => {
    let id = raw === '' ? `call_${i + 1}` : raw;
    for (let n = 2; seen.has(id); n++) id = `${raw || `call_${i + 1}`}_${n}`;
    seen.add(id);
    return id;
  });
}

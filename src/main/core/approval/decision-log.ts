/**
 * The decision log of the Security page (docs/ui.md): recent rows of `tool_decisions` (written only by
 * decisions.ts) joined with the tool call and its session, newest first. Read-only.
 * Newest is the order they were written in (`id`, the table's own key, read backwards), not `created_at`: the table
 * has no index (each is a page every tool call's commit would write; db/indexes.test.ts), and sorting by the time
 * read every row: 320 ms at 500,000 decisions, against under a millisecond. A clock set back cannot reorder the log.
 * The search is a case-insensitive substring over tool name, effective arguments, the why text and `rule N`;
 * `action` filters exactly. Limits: arguments come back cut at 4,000 characters (the full text is in the chat).
 */
import type { Db } from '../db/database';
import type { SandboxDecision } from '../sandbox/decision';
import { sandboxOf, type DecisionAction } from './decisions';

export interface DecisionLogEntry {
  id: number;
  tool_call_id: string;
  session_id: number | null;
  session_title: string | null;
  tool_name: string | null;
  arguments: string | null;
  arguments_cut: boolean;
  path: string | null;
  command: string | null;
  action: DecisionAction;
  reason_kind: string;
  rule_id: number | null;
  detail: string;
  actor: string;
  /** How the command ran (docs/sandbox.md "The decision"): for an allowed call that runs a command, else null. */
  sandbox: SandboxDecision | null;
  created_at: number;
}

const ARGS_CUT = 4_000;

/** `%` and `_` are LIKE wildcards: a search for `a_b` means the text a_b. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function listDecisions(
  db: Db,
  filter: { query?: string; action?: DecisionAction; limit?: number } = {},
): DecisionLogEntry[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.action) {
    where.push('d.action = ?');
    params.push(filter.action);
  }
  const query = filter.query?.trim();
  if (query) {
    const rule = /^rule\s+(\d+)$/i.exec(query);
    if (rule) {
      where.push('d.rule_id = ?');
      params.push(Number(rule[1]));
    } else {
      const like = `%${likeEscape(query)}%`;
      where.push(
        `(t.name LIKE ? ESCAPE '\\' OR coalesce(t.effective_arguments, t.arguments) LIKE ? ESCAPE '\\' OR d.detail LIKE ? ESCAPE '\\' OR d.reason_kind LIKE ? ESCAPE '\\')`,
      );
      params.push(like, like, like, like);
    }
  }
  const sql = `SELECT d.id, d.tool_call_id, d.session_id, s.title AS session_title, t.name AS tool_name,
                      coalesce(t.effective_arguments, t.arguments) AS args, d.action, d.reason_kind, d.rule_id, d.detail, d.actor, d.sandbox, d.created_at
               FROM tool_decisions d
               LEFT JOIN chat_llm_tools t ON t.tool_call_id = d.tool_call_id
               LEFT JOIN chat_sessions s ON s.id = d.session_id
               ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
               ORDER BY d.id DESC LIMIT ?`;
  const rows = db.prepare(sql).all(...params, filter.limit ?? 200) as (Omit<
    DecisionLogEntry,
    'arguments' | 'arguments_cut' | 'path' | 'command' | 'sandbox'
  > & { args: string | null; sandbox: string | null })[];
  return rows.map(({ args, sandbox, ...row }) => {
    const parsed = parseArgs(args);
    const command = typeof parsed.command === 'string' ? parsed.command : null;
    return {
      ...row,
      arguments: args === null ? null : args.slice(0, ARGS_CUT),
      arguments_cut: args !== null && args.length > ARGS_CUT,
      path: typeof parsed.path === 'string' ? parsed.path : null,
      command,
      sandbox: command !== null && row.action === 'allow' ? sandboxOf(sandbox) : null,
    };
  });
}

function parseArgs(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** One logged decision with its call and the session it came from, for "make a rule from this"; null when unknown. */
export interface DecidedCall {
  action: DecisionAction;
  actor: string;
  sessionId: number | null;
  agentId: string | null;
  source: string | null;
  toolName: string | null;
  args: Record<string, unknown>;
}

export function decidedCall(db: Db, decisionId: number): DecidedCall | null {
  const row = db
    .prepare(
      `SELECT d.action, d.actor, d.session_id, s.agent_id, s.source, t.name AS tool_name,
              coalesce(t.effective_arguments, t.arguments) AS args
       FROM tool_decisions d
       LEFT JOIN chat_llm_tools t ON t.tool_call_id = d.tool_call_id
       LEFT JOIN chat_sessions s ON s.id = d.session_id
       WHERE d.id = ?`,
    )
    .get(decisionId) as
    | {
        action: DecisionAction;
        actor: string;
        session_id: number | null;
        agent_id: string | null;
        source: string | null;
        tool_name: string | null;
        args: string | null;
      }
    | undefined;
  if (!row) return null;
  return {
    action: row.action,
    actor: row.actor,
    sessionId: row.session_id,
    agentId: row.agent_id,
    source: row.source,
    toolName: row.tool_name,
    args: parseArgs(row.args),
  };
}

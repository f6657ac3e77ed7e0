/**
 * `/compact` (on demand; docs/architecture.md "Slash commands"): the model summarizes the history before the last
 * `KEEP_RAW` rows; the summary then stands in for those rows in every later context (they stay in the database
 * and on screen — nothing is lost). Limits: one summary request without tools; a very long history is cut to
 * its newest `MAX_TRANSCRIPT_CHARS` characters before summarizing.
 */
import { statement, type Db } from '../db/database';
import { replayToolResult } from './context';
import type { ModelPort } from './ports';
import type { SessionStore } from './session-store';

export const KEEP_RAW = 6;
const MAX_TRANSCRIPT_CHARS = 200_000;

export interface Summary {
  upToMessageId: number;
  summary: string;
}

export function latestSummary(db: Db, sessionId: number): Summary | null {
  const row = statement(
    db,
    'SELECT up_to_message_id AS upToMessageId, summary FROM chat_summaries WHERE session_id = ? ORDER BY id DESC LIMIT 1',
  ).get(sessionId) as Summary | undefined;
  return row ?? null;
}

export async function compactSession(
  deps: { db: Db; store: SessionStore; model: ModelPort; modelSelection: string; signal: AbortSignal },
  sessionId: number,
  contextStartId: number,
): Promise<string> {
  const previous = latestSummary(deps.db, sessionId);
  const from = Math.max(contextStartId, previous ? previous.upToMessageId : 0);
  const rows = deps.store.contextMessages(sessionId, from);
  // The kept part starts at a user message, so no tool result loses its call and providers see a user turn first.
  let cut = rows.length - KEEP_RAW;
  while (cut > 0 && rows[cut]!.role === 'assistant') cut--;
  if (cut <= 0) return `Nothing to compact: the context has ${rows.length} messages.`;
  const older = rows.slice(0, cut);
  const tools = deps.store
    .toolsFromMessage(sessionId, older[0]!.id)
    .filter((t) => t.message_id !== null && t.message_id <= older.at(-1)!.id);
  const lines: string[] = previous ? [`Earlier summary:\n${previous.summary}`] : [];
  for (const row of older) {
    lines.push(`${row.role.toUpperCase()}: ${row.content}`);
    for (const t of tools.filter((x) => x.message_id === row.id))
      lines.push(`TOOL ${t.name}(${t.arguments}) → ${replayToolResult(t).slice(0, 2_000)}`);
  }
  const transcript = lines.join('\n').slice(-MAX_TRANSCRIPT_CHARS);
  const turn = await deps.model.streamRound({
    modelSelection: deps.modelSelection,
    messages: [
      {
        role: 'system',
        content:
          'You write compact, faithful summaries of agent conversations: goals, decisions, files touched, open tasks. No preamble.',
      },
      {
        role: 'user',
        content: `Summarize this conversation so the work can continue from the summary alone:\n\n${transcript}`,
      },
    ],
    tools: [],
    signal: deps.signal,
    onTextDelta: () => {},
    onReasoningDelta: () => {},
  });
  const upTo = older.at(-1)!.id + 1;
  deps.db
    .prepare('INSERT INTO chat_summaries (session_id, up_to_message_id, summary, created_at) VALUES (?, ?, ?, ?)')
    .run(sessionId, upTo, turn.text, Date.now());
  return `Compacted ${older.length} messages into a summary; the model now sees the summary and the ${rows.length - cut} newest messages.`;
}

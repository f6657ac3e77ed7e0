/**
 * Maps history rows to what the chat view renders: messages with their tool cards, the decision's "why", and
 * whether a `running` row is live or was interrupted by a stop of the app (docs/architecture.md "Crash and resume").
 */
import { DecisionSchema, type Decision } from '../../../shared/contract/approval';
import { RecentMap } from '../../../shared/recent-map';
import type { ChatImage, HistoryMessage, ToolCard } from '../../../shared/contract/chat';
import { parseToolArguments } from '../../../shared/tool-arguments';
import type { ToolsPort } from './ports';
import type { MessageRow, ToolRow } from './session-store';
import type { ListedImages } from './chat-image-rows';

export interface PendingInfo {
  request_id: number;
  args_hash: string;
  old_content: string | null;
  new_content: string | null;
}

/** A JSON column written by us; a damaged value reads as absent rather than breaking the history. */
function parseStored<T>(raw: string | null): T | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** Distinct stored decisions kept parsed (`storedDecision`); past this, the least recently read goes first. */
const DECISIONS_KEPT = 256;
const parsedDecisions = new RecentMap<string, Readonly<Decision> | null>(DECISIONS_KEPT);

/**
 * A tool row's stored decision (`latest_decision`, JSON), checked against the contract's shape; damaged reads as
 * absent. Most calls of a session share a few decisions (one rule's allow, the person's approval), and a history page
 * has a card per call: each distinct JSON is parsed and checked once, then every card holding it gets the same frozen
 * object. Parsed and checked anew, the decisions were a quarter of the bytes a page allocated (122 of 495 KB for a
 * page of 100 messages and 75 calls), and so of the collections a long scroll runs.
 */
function storedDecision(raw: string | null): Readonly<Decision> | null {
  if (!raw) return null;
  const kept = parsedDecisions.get(raw);
  if (kept !== undefined) return kept;
  // Without zod's compiled fast path: compiling it (`new Function`) cost the first history page of a process, the
  // window's first screen, about 8 ms of CPU, more than the page's parses of this three-field object save.
  const stored = DecisionSchema.safeParse(parseStored<Decision>(raw), { jitless: true });
  const decision = stored.success ? Object.freeze({ ...stored.data, why: Object.freeze(stored.data.why) }) : null;
  parsedDecisions.set(raw, decision);
  return decision;
}

export function toolCard(
  row: ToolRow,
  tools: ToolsPort,
  isLive: boolean,
  pending: PendingInfo | null,
  images?: ChatImage[],
): ToolCard {
  const parsed = parseToolArguments(row.arguments);
  const args = parsed.ok ? parsed.args : {};
  const decision = storedDecision(row.latest_decision ?? null);
  return {
    tool_call_id: row.tool_call_id,
    message_id: row.message_id,
    name: row.name,
    // What was decided and hashed (the normalized form) once the gate saw the call; before that, what was sent.
    arguments: row.effective_arguments ?? row.arguments,
    status: row.status,
    result: row.result,
    result_type: row.result_type,
    label_short: tools.describeCall(row.name, args, 'short'),
    label_full: tools.describeCall(row.name, args, 'full'),
    path: tools.targetPath(row.name, args),
    display: tools.traitsOf(row.name)?.card ?? 'none',
    decision,
    interrupted: row.status === 'running' && !isLive,
    // Field by field: the approval's own object carries more than the card shows, and the bridge passes this answer
    // as built (`answerBuiltByHandler`, src/shared/contract/define.ts).
    pending:
      row.status === 'pending' && pending
        ? {
            request_id: pending.request_id,
            args_hash: pending.args_hash,
            old_content: pending.old_content,
            new_content: pending.new_content,
          }
        : null,
    images, // undefined (left out of the answer) for a call that returned none
  };
}

export function historyMessages(
  messages: MessageRow[],
  tools: ToolRow[],
  port: ToolsPort,
  isLive: boolean,
  pendingOf: (toolCallId: string) => PendingInfo | null,
  images: ListedImages = { byMessage: new Map(), byCall: new Map() },
): HistoryMessage[] {
  const byMessage = new Map<number, ToolCard[]>();
  for (const row of tools) {
    if (row.message_id === null) continue;
    const list = byMessage.get(row.message_id) ?? [];
    list.push(
      toolCard(
        row,
        port,
        isLive,
        row.status === 'pending' ? pendingOf(row.tool_call_id) : null,
        images.byCall.get(row.tool_call_id),
      ),
    );
    byMessage.set(row.message_id, list);
  }
  return messages.map((m) => {
    const meta = parseStored<{ queued?: number; replaced?: number }>(m.metadata);
    const queued = Boolean(meta?.queued);
    return {
      id: m.id,
      role: m.role,
      content: m.content,
      status: m.status,
      queued,
      reasoning: m.reasoning_content,
      input_tokens: m.input_tokens,
      output_tokens: m.output_tokens,
      cost: m.cost,
      model: m.model,
      created_at: m.created_at,
      tools: byMessage.get(m.id) ?? [],
      images: images.byMessage.get(m.id), // undefined (left out of the answer) for a message without images
      replaced: meta?.replaced ? true : undefined,
    };
  });
}

/**
 * Rebuilds the model's context from the database every round (docs/architecture.md "The path of one tool call"): one
 * system message (static prompt → scratchpad → dynamic tail) → history (from the `/clear` point, capped, starting at a
 * user message). The dynamic tail holds date, time zone, OS, working directory and the run context's prompts. Tool
 * results are replayed by status, so a call without a result (a crash) still yields a valid request; big results of
 * earlier turns are hidden from the model only.
 */
import { leftOutResultNote } from '../llm/context-fit';
import { withholdSealed } from '../secrets/sealed-args';
import { platform, release } from 'node:os';
import type { ChatMessage } from './ports';
import type { ChatMessageImage } from '../llm/types';
import type { MessageRow, SessionStore, ToolRow } from './session-store';

/**
 * Rows replayed at most (a row: a message of the person's, or one answer of the model's with its calls). A turn may
 * take 21 (20 tool rounds and the answer), so at 30 the request after two busy turns had lost the first one, the
 * person's own words included. The window is kept by fitting each request to it (llm/context-fit.ts), not by this.
 */
export const HISTORY_CAP = 100;
export const MAX_OLD_TOOL_RESULT_CHARS = 20_000;
export const INTERRUPTED_TEXT =
  'Error: this call was interrupted (the app stopped before it finished). Check the current state (files, processes) before retrying it.';

export interface ContextInput {
  sessionId: number;
  /** A sub-agent's child stack: its own rows only; absent/null = the session's own rows. */
  stackId?: number | null;
  contextStartId: number;
  systemPrompt: string;
  extraSystemPrompts: string[];
  workingDir: string;
  scratchpad: { key: string; value: string }[];
  /** A `/compact` summary standing in for the rows before `contextStartId`. */
  summary?: string | null;
  now?: Date;
}

export function replayToolResult(row: Pick<ToolRow, 'status' | 'result'>): string {
  switch (row.status) {
    case 'done':
      return row.result ?? '';
    case 'failed':
      return `Error: ${row.result ?? 'the tool failed'}`;
    case 'rejected':
    case 'cancelled':
      return row.result ?? (row.status === 'rejected' ? 'The call was rejected.' : 'The call was cancelled.');
    default:
      return INTERRUPTED_TEXT;
  }
}

function dynamicTail(input: ContextInput): string {
  const now = input.now ?? new Date();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return [
    `Current date and time: ${now.toISOString()} (time zone ${zone}).`,
    `Operating system: ${platform()} ${release()}.`,
    `Working directory: ${input.workingDir} (relative paths resolve against it).`,
    ...input.extraSystemPrompts,
  ].join('\n');
}

/** Keeps the last `cap` rows, moving the start forward to a user message so no tool result loses its call. */
export function capHistory(rows: MessageRow[], cap: number): MessageRow[] {
  if (rows.length <= cap) return rows;
  const tail = rows.slice(rows.length - cap);
  const firstUser = tail.findIndex((r) => r.role !== 'assistant');
  return firstUser <= 0 ? tail : tail.slice(firstUser);
}

/**
 * The history rows a request replays: since the `/clear` (or summary) point, not queued, no failed message of the
 * person's, capped. One row past the cap is enough for capHistory to cut where it would cut them all, so a round of
 * a long session reads the tail of its history, not the whole of it.
 */
export function contextRows(
  store: SessionStore,
  input: Pick<ContextInput, 'sessionId' | 'stackId' | 'contextStartId'>,
): MessageRow[] {
  return capHistory(
    store.recentContextMessages(input.sessionId, input.contextStartId, HISTORY_CAP + 1, input.stackId ?? null),
    HISTORY_CAP,
  );
}

/**
 * The most images, and image bytes, one request carries, a person's and the tools' together: the newest are kept (a
 * provider takes a request of 32 MB at most, Anthropic's limit, and base64 makes the bytes 4/3 larger), the older
 * ones are named in their message's or result's text instead (docs/chat-ui.md "Images in a message"). Their bytes are
 * not even read.
 */
export const MAX_CONTEXT_IMAGES = 20;
export const MAX_CONTEXT_IMAGE_BYTES = 15 * 1024 * 1024;

interface MessageImages {
  images: ChatMessageImage[];
  leftOut: string[];
}

/**
 * The images of the rows' messages and of their calls' results, by message id (a person's) or by call id (a tool's):
 * one read of the rows' id range, none for most requests. Only the owners the request replays count (`replayed`):
 * the range also holds a sub-agent's rows and replaced messages, whose images must neither be read nor take room.
 */
function imagesOfRows(
  store: SessionStore,
  sessionId: number,
  rows: readonly MessageRow[],
  replayed: ReadonlySet<number | string>,
): Map<number | string, MessageImages> {
  const byOwner = new Map<number | string, MessageImages>();
  if (rows.length === 0) return byOwner;
  const listed = store.images.rows(sessionId, rows[0]!.id, rows.at(-1)!.id);
  let count = 0;
  let bytes = 0;
  for (let i = listed.length - 1; i >= 0; i--) {
    const image = listed[i]!;
    const owner = image.tool_call_id ?? image.message_id;
    if (!replayed.has(owner)) continue;
    const entry = byOwner.get(owner) ?? { images: [], leftOut: [] };
    byOwner.set(owner, entry);
    if (count < MAX_CONTEXT_IMAGES && bytes + image.size <= MAX_CONTEXT_IMAGE_BYTES) {
      count++;
      bytes += image.size;
      entry.images.unshift({ mediaType: image.media_type, data: store.images.bytes(image.id) });
    } else entry.leftOut.unshift(image.name);
  }
  return byOwner;
}

/** A message's or result's text, with the images left out of this request named (the model knows something was there). */
function withLeftOut(
  content: string,
  leftOut: readonly string[] | undefined,
  how: 'sent' | 'returned' = 'sent',
): string {
  if (!leftOut?.length) return content;
  return `${content}\n\n[${leftOut.length === 1 ? 'an image' : `${leftOut.length} images`} ${how} here, left out of this request: ${leftOut.join(', ')}]`;
}

export function buildContext(store: SessionStore, input: ContextInput): ChatMessage[] {
  // One system message (static → scratchpad → dynamic tail): some providers accept a system message only first.
  const system = [input.systemPrompt];
  if (input.scratchpad.length > 0) {
    system.push(
      `<scratchpad>${input.scratchpad.map((n) => `<note key="${n.key}">${n.value}</note>`).join('')}</scratchpad>`,
    );
  }
  if (input.summary)
    system.push(`<summary of the earlier conversation>\n${input.summary}\n</summary of the earlier conversation>`);
  system.push(dynamicTail(input));
  const messages: ChatMessage[] = [{ role: 'system', content: system.join('\n\n') }];

  const rows = contextRows(store, input);
  const tools = rows.length ? store.toolsFromMessage(input.sessionId, rows[0]!.id, input.stackId ?? null) : [];
  const toolsByMessage = new Map<number, ToolRow[]>();
  for (const t of tools) {
    if (t.message_id === null) continue;
    const list = toolsByMessage.get(t.message_id) ?? [];
    list.push(t);
    toolsByMessage.set(t.message_id, list);
  }
  const lastUserId = [...rows].reverse().find((r) => r.role !== 'assistant')?.id ?? 0;
  const replayed = new Set<number | string>(tools.map((t) => t.tool_call_id));
  for (const row of rows) if (row.role !== 'assistant') replayed.add(row.id);
  const images = imagesOfRows(store, input.sessionId, rows, replayed);

  for (const row of rows) {
    if (row.role !== 'assistant') {
      // Consecutive user/agent rows merge into one user message (providers want alternation).
      const prev = messages.at(-1);
      const own = images.get(row.id);
      const content = withLeftOut(row.content, own?.leftOut);
      const sent = own?.images.length ? own.images : undefined;
      if (prev?.role === 'user') {
        prev.content = `${prev.content}\n\n${content}`;
        if (sent) prev.images = [...(prev.images ?? []), ...sent];
      } else messages.push(sent ? { role: 'user', content, images: sent } : { role: 'user', content });
      continue;
    }
    const calls = toolsByMessage.get(row.id) ?? [];
    if (calls.length === 0) {
      if (row.content) messages.push({ role: 'assistant', content: row.content });
      continue;
    }
    messages.push({
      role: 'assistant',
      content: row.content,
      // Keyed by the row, the provider's id kept only to send back (llm/messages.ts): providers reuse their ids.
      tool_calls: calls.map((c) => ({
        id: c.tool_call_id,
        providerId: c.provider_call_id,
        name: c.name,
        arguments: withholdSealed(c.arguments),
      })),
    });
    for (const call of calls) {
      let content = replayToolResult(call);
      if (row.id < lastUserId && content.length > MAX_OLD_TOOL_RESULT_CHARS) {
        content = leftOutResultNote(content.length, 'of an earlier turn hidden');
      }
      const own = images.get(call.tool_call_id);
      content = withLeftOut(content, own?.leftOut, 'returned');
      messages.push(
        own?.images.length
          ? { role: 'tool', tool_call_id: call.tool_call_id, content, images: own.images }
          : { role: 'tool', tool_call_id: call.tool_call_id, content },
      );
    }
  }
  return messages;
}

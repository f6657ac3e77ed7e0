/**
 * The scan behind searching the chats (docs/ui.md "Searching chats"), run by chat-search-worker.ts on its own
 * read-only connection, never on the core's thread. What it reads: the person's and the assistant's messages of the
 * chats' own stack (`stack_id IS NULL`) in interactive sessions (`is_interactive = 1`): a sub-agent's rows and a
 * scheduled run's or async task's session are not chats the person has in the list, so they are not searched.
 *
 * No index helps `LIKE '%word%'`, and none is added (a write would pay for it): the scan walks the messages newest
 * first by id, in chunks of ids. Between chunks it asks whether a newer search replaced it, and each chunk is its own
 * short read, so the idle checkpoint is never held off by one long read (docs/security-checks.md D7).
 */
import type Database from 'better-sqlite3';
import type { ChatSearchHit } from '../../../shared/contract/chat';

export const MAX_HITS = 50;
/** Characters of context kept on each side of the match in a hit's snippet. */
export const SNIPPET_SIDE = 60;
/** Ids per chunk: about as many rows, a few milliseconds of scanning each. */
export const CHUNK_IDS = 4_000;

/**
 * Newest first within the chunk's ids. `LIKE` folds ASCII letters only (SQLite without ICU), so `Straße` finds
 * `straße` but `ÉTÉ` does not find `été`.
 */
const CHUNK_SQL = `SELECT h.id, h.session_id, h.role, h.content, h.created_at, s.title
  FROM chat_history h JOIN chat_sessions s ON s.id = h.session_id
  WHERE h.id <= ? AND h.id > ? AND h.stack_id IS NULL AND h.role IN ('user', 'assistant') AND s.is_interactive = 1
    AND h.content LIKE ? ESCAPE '\\'
  ORDER BY h.id DESC LIMIT ?`;

interface Row {
  id: number;
  session_id: number;
  role: 'user' | 'assistant';
  content: string;
  created_at: number;
  title: string;
}

/** The query as a `LIKE` pattern: `%`, `_` and `\` stand for themselves. */
export function likePattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Up to MAX_HITS messages holding `query`, newest first; null as soon as `isStale()` says a newer search replaced
 * this one (checked before each chunk).
 */
export function searchChats(
  db: Database.Database,
  query: string,
  isStale: () => boolean = () => false,
): ChatSearchHit[] | null {
  const chunk = db.prepare(CHUNK_SQL);
  const top = (db.prepare('SELECT max(id) AS top FROM chat_history').get() as { top: number | null }).top ?? 0;
  const pattern = likePattern(query);
  const hits: ChatSearchHit[] = [];
  for (let high = top; high > 0 && hits.length < MAX_HITS; high -= CHUNK_IDS) {
    if (isStale()) return null;
    for (const row of chunk.all(high, high - CHUNK_IDS, pattern, MAX_HITS - hits.length) as Row[]) {
      hits.push({
        session_id: row.session_id,
        session_title: row.title || `Session ${row.session_id}`,
        message_id: row.id,
        role: row.role,
        created_at: row.created_at,
        ...snippetOf(row.content, query),
      });
    }
  }
  return hits;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * One line of text around the first match: whitespace runs become one space, about SNIPPET_SIDE characters each side
 * (cut at a word when one is near, `…` where text was cut), and where the match sits in it (length 0 if the
 * case-insensitive search here finds nothing, which `LIKE`'s ASCII folding makes rare).
 */
export function snippetOf(
  content: string,
  query: string,
): Pick<ChatSearchHit, 'snippet' | 'match_start' | 'match_length'> {
  const flat = content.replace(/\s+/g, ' ').trim();
  const needle = query.replace(/\s+/g, ' ');
  const at = flat.search(new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i'));
  const length = at < 0 ? 0 : needle.length;
  const from = Math.max(0, at);
  let start = Math.max(0, from - SNIPPET_SIDE);
  let end = Math.min(flat.length, from + length + SNIPPET_SIDE + (at < 0 ? SNIPPET_SIDE : 0));
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    if (space >= 0 && space < from && space - start < 20) start = space + 1;
    if (isLowSurrogate(flat.charCodeAt(start))) start++;
  }
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > from + length && end - space < 20) end = space;
    if (isHighSurrogate(flat.charCodeAt(end - 1))) end--;
  }
  const before = start > 0 ? '…' : '';
  return {
    snippet: `${before}${flat.slice(start, end).trimEnd()}${end < flat.length ? '…' : ''}`,
    match_start: from - start + before.length,
    match_length: length,
  };
}

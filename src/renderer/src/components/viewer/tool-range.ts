/**
 * The line a tool call points at, for go-to-line when its path opens in the viewer: its line argument (`read_file`'s
 * offset, `insert_at_line`'s line, `replace_lines`' start) or the first hit of a search result in one file. Null when
 * the call names no range. And the hits of a search tool's result, each the file and line it names, so the card can
 * open every hit at its line (docs/viewer.md "How a file reaches the viewer"). Which result has hits is the tool's
 * card display (`file_hits`, `folder_hits`: shared/tool-traits.ts), never its name.
 */
import type { ToolCard } from '../../../../shared/contract/chat';
import { readQuotedPath } from '../../../../shared/shown-path';
import { PATH_ALIASES } from '../../../../shared/tool-names';

function positive(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : null;
}

type Card = Pick<ToolCard, 'arguments' | 'result' | 'display'>;

/** The argument names that say at which line of its file a call points, in the order they are read. */
const LINE_ARGUMENTS = ['offset', 'start_line', 'line'] as const;

function argsOf(card: Card): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(card.arguments);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return null;
  }
}

/** One line of a search result: a hit names its file and line; the rest (head, context, notes) is text. */
export interface ResultLine {
  text: string;
  hit: {
    path: string;
    line: number /** How long the `path:line` (or `line`) part at the start is. */;
    prefix: number;
  } | null;
}

/** `file_hits` (`search_file`): `12:text` (context `12-text`) for the file it searched. */
const FILE_HIT = /^(\s*(\d+)):/;
/**
 * `folder_hits` (`grep_files`) in content mode: `rel:12:text` (context `rel-12-text`), rel relative to the folder searched; an odd name
 * quoted as a JSON string (docs/tools.md "Names in results").
 */
const GREP_HIT = /^((.+?):(\d+)):/;

/** Where a grep hit's file is: the folder searched joined with its relative path (or the file itself, when one was searched). */
function grepPath(base: string, rel: string): string {
  const folder = base.replace(/[\\/]+$/, '');
  if (folder === '' || folder === '.') return rel;
  const last = folder.split(/[\\/]/).pop();
  return last === rel ? folder : `${folder}/${rel}`;
}

/** The lines of a search result in one file or a folder (content mode) with their hits; null for any other call. */
export function searchHits(card: Card): ResultLine[] | null {
  const inFolder = card.display === 'folder_hits';
  if (card.result === null || (card.display !== 'file_hits' && !inFolder)) return null;
  const args = argsOf(card);
  if (!args) return null;
  const given = ['path', ...Object.keys(PATH_ALIASES)]
    .map((key) => args[key])
    .find((v): v is string => typeof v === 'string' && v !== '');
  const base = given ?? (inFolder ? '.' : null);
  if (base === null || (inFolder && (args.output_mode ?? 'content') !== 'content')) return null;
  return card.result.split('\n').map((text) => {
    if (!inFolder) {
      const m = FILE_HIT.exec(text);
      const line = m ? positive(Number(m[2])) : null;
      return { text, hit: m && line ? { path: base, line, prefix: m[1]!.length } : null };
    }
    // A name with a line break or another control character comes as a JSON string: `"a\nb":12:text`.
    const quoted = readQuotedPath(text);
    if (text.startsWith('"')) {
      if (!quoted) return { text, hit: null }; // a name starting with a quote is always shown quoted
      const q = /^:(\d+):/.exec(text.slice(quoted.length));
      const line = q ? positive(Number(q[1])) : null;
      return {
        text,
        hit: q && line ? { path: grepPath(base, quoted.path), line, prefix: quoted.length + 1 + q[1]!.length } : null,
      };
    }
    const m = GREP_HIT.exec(text);
    const line = m ? positive(Number(m[3])) : null;
    return { text, hit: m && line ? { path: grepPath(base, m[2]!), line, prefix: m[1]!.length } : null };
  });
}

export function lineOfToolCall(card: Card): number | null {
  const args = argsOf(card);
  if (!args) return null;
  if (card.display === 'file_hits') return searchHits(card)?.find((l) => l.hit)?.hit?.line ?? null;
  const key = LINE_ARGUMENTS.find((k) => args[k] != null);
  return key === undefined ? null : positive(args[key]);
}

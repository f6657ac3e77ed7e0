/**
 * The line a tool call points at, for go-to-line when its path opens in the viewer: `read_file`'s offset,
 * `insert_at_line`'s line, `replace_lines`' start, and the first hit of a `search_file` result (`  12: text` or
 * `12:text`). Null when the call names no range.
 */
import type { ToolCard } from '../../../../shared/contract/chat';

function positive(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : null;
}

export function lineOfToolCall(card: Pick<ToolCard, 'name' | 'arguments' | 'result'>): number | null {
  let args: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(card.arguments);
    if (parsed && typeof parsed === 'object') args = parsed as Record<string, unknown>;
  } catch {
    return null;
  }
  switch (card.name) {
    case 'read_file':
      return positive(args.offset ?? args.start_line);
    case 'insert_at_line':
      return positive(args.line);
    case 'replace_lines':
      return positive(args.start_line);
    case 'search_file': {
      const hit = /^\s*(\d+)[:\-]/m.exec(card.result ?? '');
      return hit ? positive(Number(hit[1])) : null;
    }
    default:
      return null;
  }
}

/** Tool display labels (docs/chat-ui.md "Labels, commands and output"). */
export const MAX_LABEL_SHORT = 60;
export const MAX_LABEL_FULL = 120;
export type LabelLength = 'short' | 'full';

export function maxLabel(length: LabelLength): number {
  return length === 'short' ? MAX_LABEL_SHORT : MAX_LABEL_FULL;
}

/** Cuts at a character (code point) boundary, never inside a surrogate pair, and appends `…` within the budget. */
export function truncateLabel(text: string, max: number): string {
  // Code points never outnumber UTF-16 units: most labels fit, and are returned without splitting them (a history
  // page asks for two labels of every card, each passing here up to three times).
  if (text.length <= max) return text;
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

export type LabelSegment = { code: boolean; text: string };

/**
 * `text` as one code span of a label, the way Markdown writes one: fenced by a run of backticks longer than any run
 * inside it, with a space of padding where it starts or ends with a backtick, so `toolLabelSegments` reads it back
 * whole: the command echo `date` is written as two backticks, a space, the command, a space, two backticks.
 */
export function codeSpan(text: string): string {
  const longest = text.includes('`') ? Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length)) : 0;
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Code parts as Markdown reads them: a run of n backticks opens a code part that the next run of exactly n backticks
 * closes; one space of padding at each end is dropped (see `codeSpan`). A run that nothing closes is text — or, with
 * `cutAtEnd`, the start of a code part that runs to the end (a label cut by `truncateLabel` inside its code).
 */
function segments(text: string, cutAtEnd: boolean): LabelSegment[] {
  const out: LabelSegment[] = [];
  let plain = '';
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf('`', at);
    if (open < 0) break;
    let width = 1;
    while (text[open + width] === '`') width++;
    const close = closingRun(text, open + width, width);
    if (close < 0 && !cutAtEnd) {
      plain += text.slice(at, open + width);
      at = open + width;
      continue;
    }
    plain += text.slice(at, open);
    if (plain) out.push({ code: false, text: plain });
    plain = '';
    const inner = text.slice(open + width, close < 0 ? text.length : close);
    out.push({ code: true, text: close >= 0 && /^ .*[^ ].* $/s.test(inner) ? inner.slice(1, -1) : inner });
    if (close < 0) return out;
    at = close + width;
  }
  plain += text.slice(at);
  if (plain) out.push({ code: false, text: plain });
  return out;
}

/** Where the next run of exactly `width` backticks from `from` starts, or -1. */
function closingRun(text: string, from: number, width: number): number {
  const runs = /`+/g;
  runs.lastIndex = from;
  for (let m = runs.exec(text); m; m = runs.exec(text)) if (m[0].length === width) return m.index;
  return -1;
}

/**
 * A short text's text and code parts (`` `cd *` and `npm *` ``); an unpaired backtick stays text. The UI shows
 * code parts as code, never the backticks themselves.
 */
export function labelSegments(text: string): LabelSegment[] {
  return segments(text, false);
}

/**
 * A tool label (`` name `detail` ``, `` search_file `needle` in `src/a.ts` ``, each code part written by
 * `codeSpan`): every pair of backtick runs is a code part; a label cut by `truncateLabel` inside its code (ending
 * in `…`) keeps the rest as code.
 */
export function toolLabelSegments(label: string): LabelSegment[] {
  return segments(label, label.endsWith('…'));
}

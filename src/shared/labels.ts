/** Tool display labels (docs/chat-ui.md "Labels, commands and output"). */
export const MAX_LABEL_SHORT = 60;
export const MAX_LABEL_FULL = 120;
export type LabelLength = 'short' | 'full';

export function maxLabel(length: LabelLength): number {
  return length === 'short' ? MAX_LABEL_SHORT : MAX_LABEL_FULL;
}

/** Cuts at a character (code point) boundary, never inside a surrogate pair, and appends `…` within the budget. */
export function truncateLabel(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return chars.slice(0, Math.max(0, max - 1)).join('') + '…';
}

export type LabelSegment = { code: boolean; text: string };

/**
 * A short text's text and code parts, code being what sits between a pair of backticks (`` `cd *` and `npm *` ``);
 * an unpaired backtick stays text. The UI shows code parts as code, never the backticks themselves.
 */
export function labelSegments(text: string): LabelSegment[] {
  const out: LabelSegment[] = [];
  let rest = text;
  for (;;) {
    const open = rest.indexOf('`');
    const close = open < 0 ? -1 : rest.indexOf('`', open + 1);
    if (close < 0) {
      if (rest) out.push({ code: false, text: rest });
      return out;
    }
    if (open > 0) out.push({ code: false, text: rest.slice(0, open) });
    out.push({ code: true, text: rest.slice(open + 1, close) });
    rest = rest.slice(close + 1);
  }
}

/**
 * A tool label (`` name `detail` ``): one code part from the first backtick to the last, so a command that has
 * backticks of its own stays whole; a label cut by `truncateLabel` inside its code (ending in `…`) keeps the rest
 * as code.
 */
export function toolLabelSegments(label: string): LabelSegment[] {
  const open = label.indexOf('`');
  const close = label.lastIndexOf('`');
  const cut = open >= 0 && close === open && label.endsWith('…');
  if (open < 0 || (close === open && !cut)) return label ? [{ code: false, text: label }] : [];
  const end = cut ? label.length : close;
  const out: LabelSegment[] = [];
  if (open > 0) out.push({ code: false, text: label.slice(0, open) });
  out.push({ code: true, text: label.slice(open + 1, end) });
  if (end + 1 < label.length) out.push({ code: false, text: label.slice(end + 1) });
  return out;
}

/** Tool display labels (tools.md "Tool Display Labels"). */
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

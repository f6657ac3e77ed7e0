import { MAX_LABEL_SHORT, truncateLabel } from '../../../shared/labels';
/**
 * A new session's title, from its first message: one line (line breaks and runs of spaces become one space), without
 * control or direction-changing characters (which would reorder the list's text), cut at 60 characters, never inside
 * a character.
 */
export function titleFromMessage(content: string): string {
  const line = content
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return truncateLabel(line, MAX_LABEL_SHORT);
}

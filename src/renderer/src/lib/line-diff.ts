/**
 * The approval card's line diff (components/DiffView.tsx). jsdiff's line diff grows with the square of the lines that
 * differ: a write replacing a 16,000-line file with other text held the window's thread 36 s (4,000 lines: 1.6 s),
 * and the card's cap of 1 MB allows more. Past DIFF_TIMEOUT_MS it gives up, and the card shows the old text removed
 * and the new text added: a true diff, only coarser.
 */
import { diffLines } from 'diff';

export const DIFF_TIMEOUT_MS = 200;

export interface DiffPart {
  value: string;
  added: boolean;
  removed: boolean;
}

export function lineDiff(oldText: string, newText: string): DiffPart[] {
  const parts = diffLines(oldText, newText, { timeout: DIFF_TIMEOUT_MS });
  if (parts) return parts;
  const coarse: DiffPart[] = [];
  if (oldText !== '') coarse.push({ value: oldText, added: false, removed: true });
  if (newText !== '') coarse.push({ value: newText, added: true, removed: false });
  return coarse;
}

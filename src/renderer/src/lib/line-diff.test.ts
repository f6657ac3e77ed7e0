/**
 * The approval card's line diff ends in bounded time (line-diff.ts): a small change is shown line by line; two long
 * texts with nothing in common, which took jsdiff 36 s at 16,000 lines, come back as the old text removed and the new
 * text added. The test's own timeout is the hang guard.
 */
import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff';

describe('lineDiff', () => {
  it('shows a small change line by line', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\n')).toEqual([
      expect.objectContaining({ value: 'a\n', added: false, removed: false }),
      expect.objectContaining({ value: 'b\n', removed: true }),
      expect.objectContaining({ value: 'B\n', added: true }),
      expect.objectContaining({ value: 'c\n', added: false, removed: false }),
    ]);
    expect(lineDiff('', 'new\n')).toEqual([expect.objectContaining({ value: 'new\n', added: true })]);
  });

  it('two long texts with nothing in common: the old removed, the new added, at once', () => {
    const lines = (tag: string) => Array.from({ length: 16_000 }, (_, i) => `${tag} ${i} ${(i * 7) % 13}`).join('\n');
    const [before, after] = [lines('old'), lines('new')];
    expect(lineDiff(before, after)).toEqual([
      { value: before, added: false, removed: true },
      { value: after, added: true, removed: false },
    ]);
  }, 20_000);
});

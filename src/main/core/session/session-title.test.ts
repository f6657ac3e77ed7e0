/** A session's title from its first message: one line, nothing invisible or direction-changing, 60 characters. */
import { expect, it } from 'vitest';
import { titleFromMessage } from './session-title';

it('one line of at most 60 characters, cut between characters, with no controls or direction marks', () => {
  expect(titleFromMessage('  Fix the\n\nbuild\tplease  ')).toBe('Fix the build please');
  expect(titleFromMessage('invoice\u202Egnp.exe and \u2066x\u2069 \u0007bell')).toBe('invoicegnp.exe and x bell');
  const long = `${'a'.repeat(58)}😀😀 and more`;
  expect(titleFromMessage(long)).toBe(`${'a'.repeat(58)}😀…`);
  expect(Array.from(titleFromMessage('word '.repeat(100)))).toHaveLength(60);
  expect(titleFromMessage('\n\u200f\n')).toBe('');
});

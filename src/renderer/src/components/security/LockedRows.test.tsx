/** Locked rows render what they protect and why, and offer no control that could edit them. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LockedRows } from './LockedRows';

const guards = [
  {
    id: 'secrets',
    action: 'deny' as const,
    title: 'secrets/ folders',
    description: 'Reading or writing secrets.',
    locked: true as const,
  },
  {
    id: 'something_new',
    action: 'require' as const,
    title: 'A new guard',
    description: 'Asks.',
    locked: true as const,
  },
];

describe('LockedRows', () => {
  it('shows each guard with its reason and no control', () => {
    const html = renderToStaticMarkup(<LockedRows guards={guards} />);
    expect(html.match(/data-testid="locked-row"/g)).toHaveLength(2);
    expect(html).toContain('Why it is locked: Keys and passwords');
    expect(html).toContain('Checked before any rule'); // a guard without its own reason still says why
    expect(html).toMatch(/Always asks/);
    expect(html).not.toMatch(/<(button|input|select|textarea)\b/);
  });
});

/** The session list's headings (docs/chat-ui.md "Sessions"): the pinned chats, then dates on the local calendar. */
import { describe, expect, it } from 'vitest';
import { headingOf, withHeadings } from '../../src/renderer/src/lib/session-groups';

const at = (y: number, m: number, d: number, h = 12) => new Date(y, m - 1, d, h).getTime();
const now = at(2026, 12, 6, 9);

describe('session headings', () => {
  it('Today, Yesterday, the last 7 and 30 days, then the month', () => {
    expect(headingOf(at(2026, 12, 6, 0), now)).toBe('Today');
    expect(headingOf(at(2026, 12, 5, 23), now)).toBe('Yesterday');
    expect(headingOf(at(2026, 12, 5, 0), now)).toBe('Yesterday');
    expect(headingOf(at(2026, 12, 4), now)).toBe('Previous 7 days');
    expect(headingOf(at(2026, 11, 29), now)).toBe('Previous 7 days');
    expect(headingOf(at(2026, 11, 28), now)).toBe('Previous 30 days');
    expect(headingOf(at(2026, 11, 6), now)).toBe('Previous 30 days');
    expect(headingOf(at(2026, 11, 5), now)).toBe('November 2026');
    expect(headingOf(at(2025, 3, 1), now)).toBe('March 2025');
  });

  it('one heading before each run of chats under it, in the order given', () => {
    const list = [
      { id: 1, updated_at: at(2026, 12, 6) },
      { id: 2, updated_at: at(2026, 12, 6, 1) },
      { id: 3, updated_at: at(2026, 12, 1) },
      { id: 4, updated_at: at(2026, 7, 1) },
    ];
    expect(withHeadings(list, now).map((e) => (e.kind === 'heading' ? e.label : e.session.id))).toEqual([
      'Today',
      1,
      2,
      'Previous 7 days',
      3,
      'July 2026',
      4,
    ]);
    expect(withHeadings([], now)).toEqual([]);
  });

  it('the pinned chats first, newest pin first, under Pinned; the others under their dates', () => {
    const list = [
      { id: 1, updated_at: at(2026, 12, 6), pinned_at: null },
      { id: 2, updated_at: at(2026, 7, 1), pinned_at: at(2026, 12, 1) },
      { id: 3, updated_at: at(2026, 12, 1), pinned_at: null },
      { id: 4, updated_at: at(2026, 12, 6, 2), pinned_at: at(2026, 12, 5) },
    ];
    expect(withHeadings(list, now).map((e) => (e.kind === 'heading' ? e.label : e.session.id))).toEqual([
      'Pinned',
      4,
      2,
      'Today',
      1,
      'Previous 7 days',
      3,
    ]);
  });
});

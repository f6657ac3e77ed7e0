/** The app's one bounded cache (src/shared/recent-map.ts): the least recently read or written entry goes first. */
import { describe, expect, it } from 'vitest';
import { RecentMap } from './recent-map';

describe('RecentMap', () => {
  it('keeps the most recently used entries up to its limit', () => {
    const m = new RecentMap<string, number>(3);
    m.set('a', 1);
    m.set('b', 2);
    m.set('c', 3);
    expect(m.get('a')).toBe(1); // now the most recent: b is the least
    m.set('d', 4);
    expect(m.has('b')).toBe(false);
    expect([m.has('a'), m.has('c'), m.has('d'), m.size]).toEqual([true, true, true, 3]);
  });

  it('has() does not make an entry more recent; set() of a kept key does', () => {
    const m = new RecentMap<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    expect(m.has('a')).toBe(true);
    m.set('c', 3); // a was least recent despite has()
    expect(m.has('a')).toBe(false);
    m.set('b', 20); // b rewritten: most recent
    m.set('d', 4);
    expect(m.has('c')).toBe(false);
    expect(m.get('b')).toBe(20);
  });

  it('keeps null and undefined-free values apart from absence, and deletes', () => {
    const m = new RecentMap<string, number | null>(2);
    m.set('n', null);
    expect(m.get('n')).toBeNull();
    expect(m.get('missing')).toBeUndefined();
    expect(m.delete('n')).toBe(true);
    expect(m.has('n')).toBe(false);
  });
});

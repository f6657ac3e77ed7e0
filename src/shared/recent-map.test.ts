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

  it('drops the least recently used entry, however reads and writes interleave', () => {
    const m = new RecentMap<number, number>(50);
    for (let i = 0; i < 50; i++) m.set(i, i);
    // Read every even key, newest first: the odd keys are now the least recent, 1 the least of all.
    for (let i = 48; i >= 0; i -= 2) expect(m.get(i)).toBe(i);
    for (let n = 0; n < 25; n++) m.set(100 + n, n); // each write drops the least recent odd key: 1, 3, 5…
    expect([...Array(50).keys()].filter((i) => m.has(i))).toEqual([...Array(25).keys()].map((i) => i * 2));
    m.get(48); // read first of the even keys, now the newest: 46 is the least recent, older than every write
    m.set(200, 0);
    expect([m.has(46), m.has(48), m.has(100), m.size]).toEqual([false, true, true, 50]);
  });
});

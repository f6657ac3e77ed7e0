/** The countdown's arithmetic and words. */
import { describe, expect, it } from 'vitest';
import { formatLeft, secondsLeft } from './countdown';

describe('bypass countdown', () => {
  it('rounds up the seconds left and never goes below zero', () => {
    expect(secondsLeft({ expires_at: 10_500 }, 10_000)).toBe(1);
    expect(secondsLeft({ expires_at: 9_000 }, 10_000)).toBe(0);
    expect(secondsLeft({ expires_at: null }, 10_000)).toBeNull();
  });
  it('says minutes:seconds under an hour, hours and minutes above', () => {
    expect(formatLeft(899)).toBe('14:59 left');
    expect(formatLeft(3_600 + 5 * 60)).toBe('1 h 05 min left');
    expect(formatLeft(0)).toBe('expired');
    expect(formatLeft(null)).toBe('until the session ends');
  });
});

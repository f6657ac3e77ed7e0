/** The image view's fit and zoom steps. */
import { describe, expect, it } from 'vitest';
import { fitScale, MAX_SCALE, MIN_SCALE, STAGE_PADDING, zoomed } from './image-scale';

describe('image scales', () => {
  it('fit shrinks a large image to the panel (inside its padding) and never enlarges a small one', () => {
    const stage = { w: 500 + 2 * STAGE_PADDING, h: 400 + 2 * STAGE_PADDING };
    expect(fitScale({ w: 1000, h: 400 }, stage)).toBe(0.5);
    expect(fitScale({ w: 100, h: 1600 }, stage)).toBe(0.25);
    expect(fitScale({ w: 8, h: 8 }, stage)).toBe(1);
    expect(fitScale({ w: 100_000, h: 10 }, stage)).toBe(MIN_SCALE);
    expect(fitScale({ w: 0, h: 0 }, stage)).toBe(1);
  });

  it('zoom steps from the scale shown, lands on 100% when it passes it, and stays in bounds', () => {
    expect(zoomed(0.4, 1)).toBeCloseTo(0.5);
    expect(zoomed(0.5, -1)).toBeCloseTo(0.4);
    expect(zoomed(0.9, 1)).toBe(1);
    expect(zoomed(1.1, -1)).toBe(1);
    expect(zoomed(1, 1)).toBe(1.25);
    expect(zoomed(MAX_SCALE, 1)).toBe(MAX_SCALE);
    expect(zoomed(MIN_SCALE, -1)).toBe(MIN_SCALE);
  });
});

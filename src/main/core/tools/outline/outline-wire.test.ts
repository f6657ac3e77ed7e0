import { describe, expect, it } from 'vitest';
import type { OutlineItem } from './extract';
import { decodeOutline, encodeOutline } from './outline-wire';

const item = (name: string, line: number, children: OutlineItem[] = []): OutlineItem => ({
  kind: 'class',
  name,
  line,
  endLine: line + 2,
  signature: `class ${name}`,
  children,
});

describe('outline wire format', () => {
  it('round-trips nested items and moves every line by the offset', () => {
    const items = [item('A', 1, [item('m', 2, [item('deep', 3)]), item('n', 4)]), item('B', 10), item('', 20, [])];
    expect(decodeOutline(encodeOutline(items))).toEqual(items);
    const moved = decodeOutline(encodeOutline(items), 100);
    expect(moved[0]!.children[0]!.children[0]).toMatchObject({ name: 'deep', line: 103, endLine: 105 });
    expect(moved.map((i) => i.line)).toEqual([101, 110, 120]);
  });

  it('round-trips an empty outline', () => {
    expect(decodeOutline(encodeOutline([]), 5)).toEqual([]);
  });
});

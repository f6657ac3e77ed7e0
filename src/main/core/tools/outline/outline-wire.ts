/**
 * How an outline crosses from a worker thread: one flat array of strings and numbers instead of a tree of
 * objects. Structured clone of ~2,500 small objects costs ~2 ms per big-file part on the receiving thread; the flat
 * form costs a quarter of that, and the receiver (the one thread every part returns to) is where it counts.
 * Layout: the top-level count, then per item, depth first: kind, name, line, endLine, signature, child count.
 */
import type { OutlineItem } from './extract';

export type FlatOutline = (string | number)[];

export function encodeOutline(items: readonly OutlineItem[]): FlatOutline {
  const out: FlatOutline = [items.length];
  const put = (list: readonly OutlineItem[]): void => {
    for (const item of list) {
      out.push(item.kind, item.name, item.line, item.endLine, item.signature, item.children.length);
      put(item.children);
    }
  };
  put(items);
  return out;
}

/** The items back, every line number moved by `lineOffset` (where the part starts in the whole file). */
export function decodeOutline(flat: FlatOutline, lineOffset = 0): OutlineItem[] {
  let at = 1;
  const take = (count: number): OutlineItem[] => {
    const list: OutlineItem[] = [];
    for (let k = 0; k < count; k++) {
      const kind = flat[at] as string;
      const name = flat[at + 1] as string;
      const line = (flat[at + 2] as number) + lineOffset;
      const endLine = (flat[at + 3] as number) + lineOffset;
      const signature = flat[at + 4] as string;
      const childCount = flat[at + 5] as number;
      at += 6;
      list.push({ kind, name, line, endLine, signature, children: take(childCount) });
    }
    return list;
  };
  return take(flat[0] as number);
}

/**
 * A highlighted block kept as data (lib/painted-block.ts, docs/chat-ui.md "Code highlighting"): it paints back the
 * same tokens, classes and line breaks as the worker's lines, in three objects whatever the block's length.
 */
import { describe, expect, it } from 'vitest';
import { encodeTokens, LINE_BREAK, NO_CLASS, tokenRuns } from '../../src/renderer/src/lib/painted-block';
import type { HighlightedLine } from '../../src/renderer/src/lib/highlight.worker';

const classes = new Map<string, number>();
const classOf = (light: string, dark: string) => {
  const key = `${light} ${dark}`;
  if (!classes.has(key)) classes.set(key, classes.size);
  return classes.get(key)!;
};

describe('a painted block as data', () => {
  it('gives back every token with its class, and a line break between lines', () => {
    const lines: HighlightedLine[] = [
      [
        ['const', '#d73a49', '#f97583'],
        [' x ', '', ''],
        ['=', '#d73a49', '#f97583'],
        [' 1;', '#24292e', '#e1e4e8'],
      ],
      [],
      [['// ünïcode 🎉 and a `tick`', '#6a737d', '#6a737d']],
    ];
    const block = encodeTokens(lines, classOf);
    const kw = classOf('#d73a49', '#f97583');
    expect([...tokenRuns(block)]).toEqual([
      ['const', kw],
      [' x ', NO_CLASS],
      ['=', kw],
      [' 1;', classOf('#24292e', '#e1e4e8')],
      ['\n', LINE_BREAK],
      ['\n', LINE_BREAK],
      ['// ünïcode 🎉 and a `tick`', classOf('#6a737d', '#6a737d')],
    ]);
    // The text is the code itself, as the block showed it before it was highlighted.
    expect(block.text).toBe('const x = 1;\n\n// ünïcode 🎉 and a `tick`');
  });

  it('keeps a long block in three objects (no node, no array per token)', () => {
    const line: HighlightedLine = Array.from(
      { length: 40 },
      (_, i) => [`t${i} `, i % 2 ? '#111111' : '', i % 2 ? '#eeeeee' : ''] as [string, string, string],
    );
    const block = encodeTokens(
      Array.from({ length: 500 }, () => line),
      classOf,
    );
    expect(Object.keys(block).sort()).toEqual(['classes', 'ends', 'text']);
    expect(block.ends).toBeInstanceOf(Uint32Array);
    expect(block.classes).toBeInstanceOf(Int32Array);
    expect(block.ends.length).toBe(500 * 40 + 499);
    const runs = [...tokenRuns(block)];
    expect(runs[40]).toEqual(['\n', LINE_BREAK]);
    expect(runs[42]).toEqual(['t1 ', classOf('#111111', '#eeeeee')]);
    expect(runs.filter(([, c]) => c === LINE_BREAK)).toHaveLength(499);
  });

  it('an empty block paints nothing', () => {
    expect([...tokenRuns(encodeTokens([], classOf))]).toEqual([]);
    expect([...tokenRuns(encodeTokens([[]], classOf))]).toEqual([]);
  });
});

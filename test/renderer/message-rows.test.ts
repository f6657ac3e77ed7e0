/**
 * The message list's rows, window and virtualizer options (docs/chat-ui.md "Scrolling"): an older page arriving
 * above keeps every row's key (so measured heights survive) and the reader's row where it was on screen; the
 * virtualizer holds a bounded window of the loaded rows whatever the session's length, moved by the reader; its
 * key function does not change on a plain re-render (a new one makes it lay out every row again).
 * The placement checks run the real @tanstack/virtual-core virtualizer, with a scroll element that reports a
 * fixed viewport.
 */
import { Virtualizer } from '@tanstack/virtual-core';
import { describe, expect, it } from 'vitest';
import type { HistoryMessage } from '../../src/shared/contract/chat';
import {
  buildRows,
  listOptions,
  markdownTextsAround,
  PRERENDER_ABOVE,
  PRERENDER_BELOW,
  shiftWindow,
  windowOf,
  WINDOW_ROWS,
  WINDOW_SHIFT,
  type Row,
  type RowCache,
  type RowModel,
  type RowWindow,
} from '../../src/renderer/src/lib/message-rows';
import type { Notice } from '../../src/renderer/src/stores/chat-reducer';

const message = (id: number): HistoryMessage => ({
  id,
  role: Math.abs(id) % 2 ? 'assistant' : 'user',
  content: `Message ${id}: ${'words '.repeat(5 + (Math.abs(id) % 40))}`,
  status: 'ok',
  queued: false,
  reasoning: null,
  input_tokens: null,
  output_tokens: null,
  cost: null,
  model: null,
  created_at: 0,
  tools: [],
});
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => message(from + i));
/** Every loaded row's entry, in order (the list itself only ever asks for its window's). */
const entries = (model: RowModel) => Array.from({ length: model.count }, (_, i) => model.entryAt(i));
const keysOf = (model: RowModel) => entries(model).map((e) => e.key);

/** A virtualizer over `view` in a 600 px viewport scrolled to `offset`, as the list configures it. */
function place(view: RowWindow, offset: number) {
  const element = { scrollTop: offset } as unknown as Element;
  const virtualizer = new Virtualizer<Element, Element>({
    ...listOptions(view),
    getScrollElement: () => element,
    observeElementRect: (_instance, cb) => {
      cb({ width: 800, height: 600 });
      return () => {};
    },
    observeElementOffset: (_instance, cb) => {
      cb(offset, false);
      return () => {};
    },
    scrollToFn: () => {},
  });
  virtualizer._willUpdate();
  return virtualizer;
}
const topRow = (v: Virtualizer<Element, Element>) => v.getVirtualItemForOffset(v.scrollOffset!)!;

describe('message rows', () => {
  it('an older page prepended keeps the keys, row objects and guesses of the rows already there', () => {
    const newest = range(1_000, 1_100);
    const cache: RowCache = new Map();
    const before = entries(buildRows(newest, [], false, cache));
    const after = entries(buildRows([...range(900, 1_000), ...newest], [], true, cache));
    after.slice(100, 200).forEach((entry, i) => {
      expect(entry.key).toBe(before[i]!.key);
      expect(entry.row).toBe(before[i]!.row);
      expect(entry.estimate).toBe(before[i]!.estimate);
    });
    expect(after[0]!.key).toBe('m900');
    expect(after.at(-1)!.key).toBe('streaming');
    expect(new Set(after.map((e) => e.key)).size).toBe(after.length);
  });

  it('a changed message gets a new row (and guess); the cache keeps one entry per message', () => {
    const cache: RowCache = new Map();
    const messages = range(1, 4);
    const first = entries(buildRows(messages, [], false, cache));
    const changed = { ...messages[1]!, content: `${messages[1]!.content}\n\nmore` };
    const again = entries(buildRows([messages[0]!, changed, messages[2]!], [], false, cache));
    expect(again[0]!.row).toBe(first[0]!.row);
    expect(again[1]!.row).toEqual({ kind: 'message', message: changed });
    expect(again[1]!.estimate).toBeGreaterThan(first[1]!.estimate);
    expect(cache.size).toBe(3);
  });

  it('notices sit after the message they followed, keyed apart from messages', () => {
    const model = buildRows(range(1, 4), [{ id: 1, kind: 'info', text: '/help', afterMessageId: 2 }], false);
    expect(keysOf(model)).toEqual(['m1', 'm2', 'n1', 'm3']);
  });

  it('places notices anywhere (before all, between, stacked, after all, with the stream) and finds every key', () => {
    const notice = (id: number, afterMessageId: number): Notice => ({
      id,
      kind: 'info',
      text: `n${id}`,
      afterMessageId,
    });
    const notices = [notice(1, 0), notice(2, 11), notice(3, 11), notice(4, 13), notice(5, 99)];
    const model = buildRows(range(10, 15), notices, true);
    expect(keysOf(model)).toEqual(['n1', 'm10', 'm11', 'n2', 'n3', 'm12', 'm13', 'n4', 'm14', 'n5', 'streaming']);
    keysOf(model).forEach((key, i) => expect(model.indexOfKey(key)).toBe(i));
    expect(model.indexOfKey('m99')).toBe(-1);
    expect(model.indexOfKey('n9')).toBe(-1);
    expect(buildRows(range(10, 15), notices, false).indexOfKey('streaming')).toBe(-1);
  });

  it('an older page costs the window, not every loaded message: no row is made or read outside it', () => {
    const loaded = range(0, 20_000);
    let reads = 0;
    const counted = new Proxy(loaded, {
      get: (target, key, receiver) => (
        typeof key === 'string' && /^\d+$/.test(key) && reads++, Reflect.get(target, key, receiver)
      ),
    });
    const model = buildRows(counted, [], false);
    expect(reads).toBe(0);
    const view = windowOf(model, null);
    expect(reads).toBe(WINDOW_ROWS);
    expect(view.keys.at(-1)).toBe('m19999');
  });

  it('the key function changes only when the rows do', () => {
    const model = buildRows(range(1, 50), [], false);
    const view = windowOf(model, null);
    const options = listOptions(view);
    expect(options.getItemKey(3)).toBe('m4');
    expect(listOptions(windowOf(model, null)).getItemKey).not.toBe(options.getItemKey);
  });
});

describe('the window of rows the virtualizer holds', () => {
  const all = buildRows(range(0, 5_000), [], false);

  it('holds at most WINDOW_ROWS rows, ending at the newest while live', () => {
    const view = windowOf(all, null);
    expect(view.rows.length).toBe(WINDOW_ROWS);
    expect(view.live).toBe(true);
    expect(view.keys.at(-1)).toBe('m4999');
    expect(view.keys).toEqual(keysOf(all).slice(-WINDOW_ROWS));
  });

  it('moves up a shift at a time until it holds the first loaded row, then down back to live', () => {
    let view = windowOf(all, null);
    const seen: number[] = [];
    for (let end = shiftWindow(all, view, 'up'); end !== undefined; end = shiftWindow(all, view, 'up')) {
      view = windowOf(all, end);
      seen.push(view.end);
      expect(view.rows.length).toBeLessThanOrEqual(WINDOW_ROWS);
    }
    expect(view.start).toBe(0);
    expect(seen[0]).toBe(4_999 - WINDOW_SHIFT);
    expect(view.live).toBe(false);
    for (let end = shiftWindow(all, view, 'down'); end !== undefined; end = shiftWindow(all, view, 'down'))
      view = windowOf(all, end);
    expect(view.live).toBe(true);
    expect(view.end).toBe(4_999);
  });

  it('a window that is not live stays put when newer messages arrive or older pages load', () => {
    const view = windowOf(all, 'm3000');
    const grown = buildRows(range(-100, 5_100), [], true);
    const same = windowOf(grown, 'm3000');
    expect(same.keys).toEqual(view.keys);
    expect(same.live).toBe(false);
  });
});

describe('the reader’s place', () => {
  /** Scrolls a virtualizer over `before` to `offset`, then gives it `after`; returns the top row before and after. */
  function across(before: RowWindow, after: RowWindow, offset: number) {
    const v = place(before, offset);
    const was = topRow(v);
    const gap = v.scrollOffset! - was.start;
    v.setOptions({ ...v.options, ...listOptions(after) });
    const now = v.getVirtualItems().find((item) => item.key === was.key)!;
    return { was, gap, now, offset: v.scrollOffset! };
  }

  it('stays on the same row at the same height when an older page arrives above it', () => {
    const newest = range(1_000, 1_100);
    const { was, gap, now, offset } = across(
      windowOf(buildRows(newest, [], false), null),
      windowOf(buildRows([...range(900, 1_000), ...newest], [], false), null),
      2_000,
    );
    expect(was.key).not.toBe('m1000');
    expect(now.key).toBe(was.key);
    expect(offset - now.start).toBe(gap);
    expect(offset).toBeGreaterThan(2_000);
  });

  it('stays on the same row when the window moves up or down under it', () => {
    const all = buildRows(range(0, 3_000), [], false);
    const live = windowOf(all, null);
    const up = windowOf(all, shiftWindow(all, live, 'up')!);
    const moved = across(live, up, 1_500);
    expect(moved.now.key).toBe(moved.was.key);
    expect(moved.offset - moved.now.start).toBe(moved.gap);
    const back = across(up, windowOf(all, shiftWindow(all, up, 'down')!), 60_000);
    expect(back.now.key).toBe(back.was.key);
    expect(back.offset - back.now.start).toBe(back.gap);
  });
});

describe('rows rendered ahead', () => {
  it("gives the assistant messages' texts just outside the screen, nearest first, above before below", () => {
    const rows: Row[] = range(0, 200).map((m) => ({ kind: 'message', message: m }));
    rows.splice(
      150,
      0,
      { kind: 'notice', notice: { id: 1, kind: 'info', text: 'n', afterMessageId: 149 } as Notice },
      { kind: 'streaming' },
    );
    const texts = markdownTextsAround(rows, 100, 110);
    const ids = texts.map((t) => Number(/^Message (\d+)/.exec(t)![1]));
    const above = ids.filter((id) => id < 100);
    const below = ids.filter((id) => id > 110);
    expect(ids).toEqual([...above, ...below]);
    expect(above).toEqual(
      range(100 - PRERENDER_ABOVE, 100)
        .filter((m) => m.role === 'assistant')
        .map((m) => m.id)
        .reverse(),
    );
    expect(below).toEqual(
      range(111, 111 + PRERENDER_BELOW)
        .filter((m) => m.role === 'assistant')
        .map((m) => m.id),
    );
    // At the edges: nothing past the first or the last row; notices, the streaming row, empty texts and users' are skipped.
    expect(markdownTextsAround(rows, 0, 5).every((t) => Number(/^Message (\d+)/.exec(t)![1]) > 5)).toBe(true);
    const tail = rows
      .slice(145, 155)
      .map((r) =>
        r.kind === 'message' && r.message.id === 147
          ? { kind: 'message' as const, message: { ...r.message, content: '' } }
          : r,
      );
    expect(markdownTextsAround(tail, 0, 0).map((t) => Number(/^Message (\d+)/.exec(t)![1]))).toEqual([149, 151]); // 147 (empty) skipped
    expect(markdownTextsAround(rows, rows.length - 3, rows.length - 1).length).toBe(Math.ceil(PRERENDER_ABOVE / 2));
  });
});

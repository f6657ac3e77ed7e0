/**
 * The rows of the chat's message list and what its virtualizer needs to place them (docs/chat-ui.md "Scrolling").
 * - Each message's row, key (its id, so a measured height survives older pages arriving above it) and first guess
 *   at its height are made once per message object and kept in a WeakMap (the store replaces only messages that
 *   changed); the virtualizer reads them from arrays, through functions that change only when the rows do: it then
 *   lays its rows out again only when they change or one is measured, at an array read per row.
 * - The virtualizer holds a window of the loaded rows (`windowOf`), never all of them: laying out costs the window,
 *   however many pages the reader has loaded. The reader moves it by scrolling near its edges (`shiftWindow`).
 * - `listOptions` anchors the list to its end: when rows arrive above the reader (an older page, the window moving
 *   up), the library keeps the row they were reading where it was.
 */
import type { HistoryMessage } from '../../../shared/contract/chat';
import type { Notice } from '../stores/chat-reducer';

export type Row = { kind: 'message'; message: HistoryMessage } | { kind: 'notice'; notice: Notice } | { kind: 'streaming' };

export interface RowModel {
  rows: Row[];
  keys: string[];
  estimates: number[];
}

const NOTICE_ESTIMATE = 48;
const STREAMING_ESTIMATE = 120;
export const STREAMING_KEY = 'streaming';

type MessageRow = { row: Row; key: string; estimate: number };
const perMessage = new WeakMap<HistoryMessage, MessageRow>();

/** A first guess at a message row's height from its text (about 100 characters a line), corrected once it renders. */
export function estimateMessageHeight(message: HistoryMessage): number {
  let lines = 0;
  for (const line of message.content.split('\n')) lines += 1 + Math.floor(line.length / 100);
  return 36 + lines * 21 + message.tools.length * 46;
}

function describe(message: HistoryMessage): MessageRow {
  let known = perMessage.get(message);
  if (!known) perMessage.set(message, (known = { row: { kind: 'message', message }, key: `m${message.id}`, estimate: estimateMessageHeight(message) }));
  return known;
}

/** Messages in order with each notice after the message it followed, then the streaming reply if there is one. */
export function buildRows(messages: readonly HistoryMessage[], notices: readonly Notice[], streaming: boolean): RowModel {
  const rows: Row[] = [];
  const keys: string[] = [];
  const estimates: number[] = [];
  const addNotice = (notice: Notice) => {
    rows.push({ kind: 'notice', notice });
    keys.push(`n${notice.id}`);
    estimates.push(NOTICE_ESTIMATE);
  };
  let n = 0;
  for (const message of messages) {
    while (n < notices.length && notices[n]!.afterMessageId < message.id) addNotice(notices[n++]!);
    const { row, key, estimate } = describe(message);
    rows.push(row);
    keys.push(key);
    estimates.push(estimate);
  }
  for (; n < notices.length; n++) addNotice(notices[n]!);
  if (streaming) {
    rows.push({ kind: 'streaming' });
    keys.push(STREAMING_KEY);
    estimates.push(STREAMING_ESTIMATE);
  }
  return { rows, keys, estimates };
}

/**
 * The virtualizer's options that depend on the rows. Built once per RowModel (memoize on it): the virtualizer
 * recomputes every row's position whenever `getItemKey` is a new function.
 */
export function listOptions(model: RowModel) {
  return {
    count: model.rows.length,
    getItemKey: (index: number) => model.keys[index]!,
    estimateSize: (index: number) => model.estimates[index]!,
    // Rows arriving above the reader (older pages, a window moved up) keep the row in view where it was.
    anchorTo: 'end' as const,
    // Following the newest row is the list's own (only when its window is live): following the end of a window
    // that is not would pull the reader down page after page.
    followOnAppend: false,
    overscan: 6,
  };
}

/**
 * The rows the virtualizer holds: at most WINDOW_ROWS of the loaded rows, ending at the row keyed `end` (null: at
 * the newest, following what arrives). However many pages a reader has loaded, laying out the list then costs the
 * window, not the session. The reader moves the window by scrolling near its top or bottom (`shiftWindow`).
 */
export const WINDOW_ROWS = 1_000;
/** How many rows a window moves at a time (its rows near the reader stay where they are on screen). */
export const WINDOW_SHIFT = 300;

export interface RowWindow extends RowModel {
  /** Index in the loaded rows of the window's first row, and of its last. */
  start: number;
  end: number;
  /** The window ends at the newest row. */
  live: boolean;
}

export function windowOf(model: RowModel, end: string | null, size = WINDOW_ROWS): RowWindow {
  const found = end === null ? -1 : model.keys.lastIndexOf(end);
  const last = found < 0 ? model.rows.length - 1 : found;
  const first = Math.max(0, last - size + 1);
  return {
    rows: model.rows.slice(first, last + 1),
    keys: model.keys.slice(first, last + 1),
    estimates: model.estimates.slice(first, last + 1),
    start: first,
    end: last,
    live: last === model.rows.length - 1,
  };
}

/**
 * Where the window's end goes when the reader nears its top (`up`) or bottom: `WINDOW_SHIFT` rows that way, null
 * once it reaches the newest row; undefined when it cannot move that way (it already holds the first loaded row,
 * or the newest).
 */
export function shiftWindow(model: RowModel, view: RowWindow, direction: 'up' | 'down', shift = WINDOW_SHIFT): string | null | undefined {
  if (direction === 'up') return view.start > 0 ? model.keys[Math.max(0, view.end - shift)]! : undefined;
  if (view.live) return undefined;
  const end = view.end + shift;
  return end >= model.rows.length - 1 ? null : model.keys[end]!;
}

/**
 * The rows of the chat's message list and what its virtualizer needs to place them (docs/chat-ui.md "Scrolling").
 * - The loaded rows are a view over the store's messages (`buildRows`), not arrays built over all of them: a row, its
 *   key and its first guess at a height are made when asked for, once per message object (a `RowCache` per list, by
 *   message id: the store replaces only messages that changed). An older page arriving, a message changing, costs the rows the list shows,
 *   not every loaded message (at 50,000 messages, arrays built over all of them cost tens of ms a page).
 * - The virtualizer holds a window of the loaded rows (`windowOf`, arrays of at most WINDOW_ROWS), never all of them:
 *   laying out costs the window, however many pages the reader has loaded. It reads keys and guesses from those arrays,
 *   through functions that change only when the window does. The reader moves it by scrolling near its edges
 *   (`shiftWindow`).
 * - `listOptions` anchors the list to its end: when rows arrive above the reader (an older page, the window moving
 *   up), the library keeps the row they were reading where it was.
 */
import type { HistoryMessage } from '../../../shared/contract/chat';
import type { Notice } from '../stores/chat-reducer';

export type Row =
  | { kind: 'message'; message: HistoryMessage }
  | { kind: 'notice'; notice: Notice }
  | { kind: 'streaming' };

/** One row: what it shows, its key (a message's id, so a measured height survives older pages arriving above it), its first guess at a height. */
export interface RowEntry {
  row: Row;
  key: string;
  estimate: number;
}

/** The loaded rows: messages in order with each notice after the message it followed, then the streaming reply. */
export interface RowModel {
  count: number;
  entryAt(index: number): RowEntry;
  /** The index of the row keyed `key`, or -1. */
  indexOfKey(key: string): number;
}

const NOTICE_ESTIMATE = 48;
const STREAMING_ESTIMATE = 120;
export const STREAMING_KEY = 'streaming';
const STREAMING: RowEntry = { row: { kind: 'streaming' }, key: STREAMING_KEY, estimate: STREAMING_ESTIMATE };

type MessageEntry = RowEntry & { row: Extract<Row, { kind: 'message' }> };

/**
 * The rows made so far, by message id, each for the newest object of its message (one stale object per message at
 * most, replaced when its row is asked for again). One per list: MessageList keeps one per session it shows, so a
 * session left is dropped whole. Not a WeakMap keyed by message: the garbage collector handles each entry of a weak
 * map on its own, and with tens of thousands of them the full collection after leaving a 50,000-message session
 * spent about 25 ms of a 70 ms pause on them (docs/chat-ui.md "Scrolling").
 */
export type RowCache = Map<number, MessageEntry>;

const perNotice = new WeakMap<Notice, RowEntry>();

/** A first guess at a message row's height from its text (about 100 characters a line) and images, corrected once it renders. */
export function estimateMessageHeight(message: HistoryMessage): number {
  let lines = 0;
  for (const line of message.content.split('\n')) lines += 1 + Math.floor(line.length / 100);
  // A message's images are one line of 120 px thumbnails (components/MessageImages.tsx), wrapping past three.
  const imageRows = Math.ceil((message.images?.length ?? 0) / 3);
  return 36 + lines * 21 + message.tools.length * 46 + imageRows * 126;
}

function describe(message: HistoryMessage, cache: RowCache): RowEntry {
  let known = cache.get(message.id);
  if (known?.row.message !== message)
    cache.set(
      message.id,
      (known = { row: { kind: 'message', message }, key: `m${message.id}`, estimate: estimateMessageHeight(message) }),
    );
  return known;
}

function describeNotice(notice: Notice): RowEntry {
  let known = perNotice.get(notice);
  if (!known)
    perNotice.set(
      notice,
      (known = { row: { kind: 'notice', notice }, key: `n${notice.id}`, estimate: NOTICE_ESTIMATE }),
    );
  return known;
}

/**
 * The rows of `messages` (in order) with each notice before the first message after it whose id is above the notice's
 * `afterMessageId`, then the streaming reply if there is one. Costs a pass over the ids only when there are notices
 * (a handful: they are the view's own, never stored); rows are made when asked for.
 */
export function buildRows(
  messages: readonly HistoryMessage[],
  notices: readonly Notice[],
  streaming: boolean,
  cache: RowCache = new Map(),
): RowModel {
  /** Notice j sits right before message `before[j]` (messages.length: after the last), at row before[j] + j. */
  const before: number[] = [];
  let m = 0;
  for (const notice of notices) {
    while (m < messages.length && messages[m]!.id <= notice.afterMessageId) m++;
    before.push(m);
  }
  const count = messages.length + notices.length + (streaming ? 1 : 0);
  /** How many notices sit before message `i`. */
  const noticesBefore = (i: number) => {
    let n = 0;
    while (n < before.length && before[n]! <= i) n++;
    return n;
  };
  return {
    count,
    entryAt(index) {
      if (streaming && index === count - 1) return STREAMING;
      let n = 0;
      for (; n < before.length && before[n]! + n <= index; n++)
        if (before[n]! + n === index) return describeNotice(notices[n]!);
      return describe(messages[index - n]!, cache);
    },
    indexOfKey(key) {
      if (key === STREAMING_KEY) return streaming ? count - 1 : -1;
      const id = Number(key.slice(1));
      if (key.startsWith('n')) {
        const n = notices.findIndex((notice) => notice.id === id);
        return n < 0 ? -1 : before[n]! + n;
      }
      // From the newest: ids only, no row made.
      for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.id === id) return i + noticesBefore(i);
      return -1;
    },
  };
}

/**
 * The virtualizer's options that depend on the rows. Built once per window (memoize on it): the virtualizer
 * recomputes every row's position whenever `getItemKey` is a new function.
 */
export function listOptions(model: RowWindow) {
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

export interface RowWindow {
  rows: Row[];
  keys: string[];
  estimates: number[];
  /** Index in the loaded rows of the window's first row, and of its last. */
  start: number;
  end: number;
  /** The window ends at the newest row. */
  live: boolean;
}

export function windowOf(model: RowModel, end: string | null, size = WINDOW_ROWS): RowWindow {
  const found = end === null ? -1 : model.indexOfKey(end);
  const last = found < 0 ? model.count - 1 : found;
  const first = Math.max(0, last - size + 1);
  const rows: Row[] = [];
  const keys: string[] = [];
  const estimates: number[] = [];
  for (let i = first; i <= last; i++) {
    const { row, key, estimate } = model.entryAt(i);
    rows.push(row);
    keys.push(key);
    estimates.push(estimate);
  }
  return { rows, keys, estimates, start: first, end: last, live: last === model.count - 1 };
}

/**
 * Where the window's end goes when the reader nears its top (`up`) or bottom: `WINDOW_SHIFT` rows that way, null
 * once it reaches the newest row; undefined when it cannot move that way (it already holds the first loaded row,
 * or the newest).
 */
export function shiftWindow(
  model: RowModel,
  view: RowWindow,
  direction: 'up' | 'down',
  shift = WINDOW_SHIFT,
): string | null | undefined {
  if (direction === 'up') return view.start > 0 ? model.entryAt(Math.max(0, view.end - shift)).key : undefined;
  if (view.live) return undefined;
  const end = view.end + shift;
  return end >= model.count - 1 ? null : model.entryAt(end).key;
}

/** Rows outside the screen whose Markdown the list renders ahead in idle time: more above, where a reader scrolls to. */
export const PRERENDER_ABOVE = 30;
export const PRERENDER_BELOW = 10;

/**
 * The Markdown texts (assistant messages') of the rows just outside `first`..`last`, nearest first: up to
 * PRERENDER_ABOVE rows above, then up to PRERENDER_BELOW below (MessageList renders them ahead while idle).
 */
export function markdownTextsAround(rows: readonly Row[], first: number, last: number): string[] {
  const texts: string[] = [];
  const add = (row: Row | undefined) => {
    if (row?.kind === 'message' && row.message.role === 'assistant' && row.message.content)
      texts.push(row.message.content);
  };
  for (let i = first - 1; i >= Math.max(0, first - PRERENDER_ABOVE); i--) add(rows[i]);
  for (let i = last + 1; i <= Math.min(rows.length - 1, last + PRERENDER_BELOW); i++) add(rows[i]);
  return texts;
}

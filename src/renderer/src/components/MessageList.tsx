/**
 * The message list, virtualized (@tanstack/react-virtual) so a session of tens of thousands of messages opens and
 * scrolls fast: only the visible rows are in the DOM, each row keyed by its message (so a measured height survives
 * older pages arriving above it) and estimated from its content before it is measured. A session opens at its
 * newest message; while the reader is at the bottom the list follows new text, and once they scroll up it keeps
 * their place (new rows below, older pages loaded above, rows re-measured) until they come back down.
 * The list reads the chat store itself, by slices: a streaming reply re-renders only its own row (StreamingRow),
 * never the list or the chat around it. The streaming reply is Markdown as it arrives (docs/chat-ui.md).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { HistoryMessage } from '../../../shared/contract/chat';
import type { ChatState, Notice } from '../stores/chat-store';
import { Markdown, StreamingMarkdown } from './Markdown';
import { ToolCardView, type ToolCardActions } from './ToolCardView';

type Row = { kind: 'message'; message: HistoryMessage } | { kind: 'notice'; notice: Notice } | { kind: 'streaming' };

function rowsOf(messages: HistoryMessage[], notices: Notice[], streaming: boolean): Row[] {
  const rows: Row[] = [];
  let n = 0;
  for (const message of messages) {
    while (n < notices.length && notices[n]!.afterMessageId < message.id) rows.push({ kind: 'notice', notice: notices[n++]! });
    rows.push({ kind: 'message', message });
  }
  for (; n < notices.length; n++) rows.push({ kind: 'notice', notice: notices[n]! });
  if (streaming) rows.push({ kind: 'streaming' });
  return rows;
}

const rowKey = (row: Row): string => (row.kind === 'message' ? `m${row.message.id}` : row.kind === 'notice' ? `n${row.notice.id}` : 'streaming');

/** A first guess at a row's height from its text (about 100 characters a line), corrected once it renders. */
function estimateRowHeight(row: Row): number {
  if (row.kind !== 'message') return row.kind === 'notice' ? 48 : 120;
  const { content, tools } = row.message;
  let lines = 0;
  for (const line of content.split('\n')) lines += 1 + Math.floor(line.length / 100);
  return 36 + lines * 21 + tools.length * 46;
}

// Memoized on the message object: the store replaces only the messages that changed, so old rows never re-render.
const MessageView = memo(function MessageView({ message, actions }: { message: HistoryMessage; actions: ToolCardActions }) {
  return (
    <div className={`msg msg-${message.role}${message.queued ? ' msg-queued' : ''}${message.status === 'failed' ? ' msg-failed' : ''}`} data-testid={`msg-${message.role}`}>
      {message.content && (message.role === 'assistant' ? <Markdown text={message.content} /> : <div className="msg-text">{message.content}</div>)}
      {message.queued && <div className="muted small">queued — sent at the next step of the running turn</div>}
      {message.status === 'failed' && message.role === 'user' && <div className="muted small">not sent (the turn was stopped)</div>}
      {message.tools.map((card) => (
        <ToolCardView key={card.tool_call_id} card={card} actions={actions} />
      ))}
      {message.role === 'assistant' && (message.input_tokens || message.output_tokens) ? (
        <div className="msg-usage" data-testid="msg-usage">
          {message.input_tokens ?? 0} in · {message.output_tokens ?? 0} out{message.cost !== null ? ` · $${message.cost.toFixed(4)}` : ''}
          {message.model ? ` · ${message.model}` : ''}
        </div>
      ) : null}
    </div>
  );
});

/** The reply being streamed: the only part of the list that re-renders per frame while tokens arrive. */
function StreamingRow({ store }: { store: StoreApi<ChatState> }) {
  const streaming = useStore(store, (s) => s.streaming);
  if (!streaming) return null;
  return (
    <div className="msg msg-assistant streaming" data-testid="streaming">
      {streaming.reasoning && <div className="reasoning">{streaming.reasoning}</div>}
      {streaming.text && <StreamingMarkdown text={streaming.text} />}
    </div>
  );
}

const BOTTOM_SLACK_PX = 40;

export function MessageList({ store, actions, onNearTop }: { store: StoreApi<ChatState>; actions: ToolCardActions; onNearTop: () => Promise<unknown> }) {
  const messages = useStore(store, (s) => s.messages);
  const notices = useStore(store, (s) => s.notices);
  const streaming = useStore(store, (s) => Boolean(s.streaming && (s.streaming.text || s.streaming.reasoning)));
  const rows = useMemo(() => rowsOf(messages, notices, streaming), [messages, notices, streaming]);
  const parentRef = useRef<HTMLDivElement>(null);
  /** The reader is at the newest row: follow what arrives. False once they scroll up. */
  const atBottom = useRef(true);
  const stick = () => {
    const el = parentRef.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  };
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (index) => estimateRowHeight(rows[index]!),
    getItemKey: (index) => rowKey(rows[index]!),
    overscan: 6,
    // Rows measure themselves after they render; when the total height grows under a reader at the bottom,
    // the list stays at the bottom.
    onChange: () => stick(),
  });

  const firstId = useRef<number | null>(null);
  useLayoutEffect(() => {
    const first = messages[0]?.id ?? null;
    const previous = firstId.current;
    firstId.current = first;
    const anchor = previous !== null && first !== null && first < previous ? rows.findIndex((r) => r.kind === 'message' && r.message.id === previous) : -1;
    if (anchor > 0 && !atBottom.current) {
      // Older rows arrived at the top: keep the row the reader was looking at in place.
      virtualizer.scrollToIndex(anchor, { align: 'start' });
    } else if (atBottom.current && rows.length) {
      virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
      stick();
    }
  }, [rows, virtualizer]);
  // A frame later the newest rows have their real heights; land exactly at the bottom.
  useEffect(() => {
    const frame = requestAnimationFrame(stick);
    return () => cancelAnimationFrame(frame);
  }, [rows]);

  return (
    <div
      className="message-list"
      ref={parentRef}
      data-testid="message-list"
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_SLACK_PX;
        if (el.scrollTop < 300 && store.getState().hasMore) void onNearTop();
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          return (
            <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="row" style={{ transform: `translateY(${item.start}px)` }}>
              {row.kind === 'message' && <MessageView message={row.message} actions={actions} />}
              {row.kind === 'notice' && <div className={`notice notice-${row.notice.kind}`} data-testid="notice"><pre>{row.notice.text}</pre></div>}
              {row.kind === 'streaming' && <StreamingRow store={store} />}
            </div>
          );
        })}
      </div>
    </div>
  );
}

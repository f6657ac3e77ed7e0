/**
 * The message list, virtualized (@tanstack/react-virtual) so a session of tens of thousands of messages opens and
 * scrolls fast: only the visible rows are in the DOM, each row keyed by its message (so a measured height survives
 * older pages arriving above it) and estimated from its content before it is measured. A session opens at its
 * newest message; while the reader is at the bottom the list follows new text, and once they scroll up it keeps
 * their place (new rows below, older pages loaded above, rows re-measured) until they come back down. The
 * virtualizer holds a window of the loaded rows that moves as the reader nears its edges (lib/message-rows.ts).
 * The list reads the chat store itself, by slices: a streaming reply re-renders only its own row (StreamingRow),
 * never the list or the chat around it. The streaming reply is Markdown as it arrives (docs/chat-ui.md).
 */
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { StoreApi } from 'zustand/vanilla';
import type { HistoryMessage } from '../../../shared/contract/chat';
import { offeredIds, offerOf } from '../lib/message-offers';
import {
  buildRows,
  listOptions,
  markdownTextsAround,
  shiftWindow,
  windowOf,
  WINDOW_ROWS,
  WINDOW_SHIFT,
  type Row,
  type RowCache,
  type RowModel,
  type RowWindow,
} from '../lib/message-rows';
import type { ChatState } from '../stores/chat-store';
import { prerenderMarkdown } from '../lib/markdown';
import { CopyButton } from './CopyButton';
import { Markdown, StreamingMarkdown } from './Markdown';
import { EditableUserText, RegenerateButton } from './MessageActions';
import { RewindButton } from './rewind/RewindLayer';
import { MessageImages } from './MessageImages';
import { RenderGuard } from './RenderGuard';
import { ToolCardView, type ToolCardActions } from './ToolCardView';

// Memoized on the message object: the store replaces only the messages that changed, so old rows never re-render.
// `offers`: this message is the person's newest (Edit) or the newest answer (Regenerate), and no turn runs.
const MessageView = memo(function MessageView({
  message,
  actions,
  offers,
}: {
  message: HistoryMessage;
  actions: ToolCardActions;
  offers: 'edit' | 'regenerate' | null;
}) {
  const failed = message.status === 'failed';
  const canRewind = message.role === 'user' && !message.replaced && !message.queued && !failed;
  return (
    <div
      className={`msg msg-${message.role}${message.queued ? ' msg-queued' : ''}${failed ? ' msg-failed' : ''}${message.replaced ? ' msg-replaced' : ''}`}
      data-testid={`msg-${message.role}`}
    >
      {message.images?.length ? <MessageImages images={message.images} /> : null}
      {message.reasoning ? (
        // The model's reasoning, kept with its answer and folded away (docs/chat-ui.md "Reasoning").
        <details className="reasoning-done" data-testid="msg-reasoning">
          <summary>Reasoning</summary>
          <div className="reasoning">{message.reasoning}</div>
        </details>
      ) : null}
      {offers === 'edit' ? (
        <EditableUserText
          messageId={message.id}
          content={message.content}
          actions={canRewind && <RewindButton messageId={message.id} />}
        />
      ) : (
        message.content &&
        (message.role === 'assistant' ? (
          <Markdown text={message.content} />
        ) : (
          <div className="msg-text">{message.content}</div>
        ))
      )}
      {canRewind && offers !== 'edit' && (
        <div className="msg-actions">
          <RewindButton messageId={message.id} />
        </div>
      )}
      {message.queued && <div className="muted small">queued — sent at the next step of the running turn</div>}
      {message.replaced && (
        <div className="muted small" data-testid="msg-replaced">
          replaced: no longer in the model's context
        </div>
      )}
      {failed && !message.replaced && message.role === 'user' && (
        <div className="muted small">not sent (the turn was stopped)</div>
      )}
      {message.tools.map((card) => (
        <ToolCardView key={card.tool_call_id} card={card} actions={actions} />
      ))}
      {message.role === 'assistant' && (message.content || message.input_tokens || message.output_tokens) ? (
        <div className="msg-usage" data-testid="msg-usage">
          {message.input_tokens || message.output_tokens ? (
            <span>
              {message.input_tokens ?? 0} in · {message.output_tokens ?? 0} out
              {message.cost !== null ? ` · $${message.cost.toFixed(4)}` : ''}
              {message.model ? ` · ${message.model}` : ''}
            </span>
          ) : null}
          {message.content ? <CopyButton text={() => message.content} testId="copy-message" /> : null}
          {offers === 'regenerate' ? <RegenerateButton /> : null}
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
      {streaming.text && <StreamingMarkdown deltas={streaming.deltas} />}
    </div>
  );
}

const BOTTOM_SLACK_PX = 40;
const PREFETCH_SCREENS = 3;
/** What of an idle period is left to the browser. */
const IDLE_RESERVE_MS = 2;

/**
 * While the page is idle, renders the Markdown of the rows just outside the screen into the cache (lib/markdown.ts):
 * the frame that mounts them then only inserts their HTML. A session just opened has rendered only its newest rows,
 * and the first frames of a scroll up rendered the rows above with the Markdown code not yet compiled: frames of
 * 50–90 ms, Markdown up to 40% of the longest (docs/chat-ui.md "Scrolling"). A scroll cancels what is left and
 * starts again from where the list is.
 */
function usePrerender(rows: readonly Row[], first: number, last: number): void {
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function' || last < first) return;
    const texts = markdownTextsAround(rows, first, last);
    let done = 0;
    let handle = 0;
    const work = (deadline: IdleDeadline) => {
      done = prerenderMarkdown(texts, done, () => deadline.timeRemaining() > IDLE_RESERVE_MS);
      if (done < texts.length) handle = requestIdleCallback(work);
    };
    handle = requestIdleCallback(work);
    return () => cancelIdleCallback(handle);
  }, [rows, first, last]);
}

/** How long a revealed message stays marked (the `row-found` flash, styles.css). */
const FOUND_MS = 2_500;

/**
 * A message the store asks to bring into view (`reveal`: a search hit, docs/ui.md "Searching chats"): the window is
 * moved so the message sits in its middle, then the list scrolls it to the centre once the window holds it, and it
 * is marked for a moment. Returns the id of the message marked, or null.
 */
function useReveal(
  store: StoreApi<ChatState>,
  model: RowModel,
  view: RowWindow,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  setWindowEnd: (end: string | null) => void,
  atBottom: { current: boolean },
): number | null {
  const reveal = useStore(store, (s) => s.reveal ?? null);
  const handled = useRef(0);
  const [target, setTarget] = useState<number | null>(null);
  const [found, setFound] = useState<number | null>(null);
  useEffect(() => {
    if (!reveal || reveal.nonce === handled.current) return;
    const index = model.indexOfKey(`m${reveal.messageId}`);
    if (index < 0) return;
    handled.current = reveal.nonce;
    atBottom.current = false; // the reader is taken up: new rows no longer pull the list down
    const end = Math.min(model.count - 1, index + Math.floor(WINDOW_ROWS / 2));
    setWindowEnd(end >= model.count - 1 ? null : model.entryAt(end).key);
    setTarget(reveal.messageId);
  }, [reveal, model]);
  useLayoutEffect(() => {
    if (target === null) return;
    const index = view.keys.indexOf(`m${target}`);
    if (index < 0) return;
    virtualizer.scrollToIndex(index, { align: 'center' });
    setFound(target);
    setTarget(null);
  }, [target, view, virtualizer]);
  useEffect(() => {
    if (found === null) return;
    const timer = setTimeout(() => setFound(null), FOUND_MS);
    return () => clearTimeout(timer);
  }, [found]);
  return found;
}

export function MessageList({
  store,
  actions,
  onNearTop,
}: {
  store: StoreApi<ChatState>;
  actions: ToolCardActions;
  onNearTop: () => Promise<unknown>;
}) {
  const messages = useStore(store, (s) => s.messages);
  const notices = useStore(store, (s) => s.notices);
  const streaming = useStore(store, (s) => Boolean(s.streaming && (s.streaming.text || s.streaming.reasoning)));
  /** This session's rows as made so far (the list is keyed by session: a session left drops them whole). */
  const [rowCache] = useState<RowCache>(() => new Map());
  const model = useMemo(
    () => buildRows(messages, notices, streaming, rowCache),
    [messages, notices, streaming, rowCache],
  );
  /** Key of the last row the list holds; null: the newest (the window is live and follows what arrives). */
  const [windowEnd, setWindowEnd] = useState<string | null>(null);
  const view = useMemo(() => windowOf(model, windowEnd), [model, windowEnd]);
  const { rows } = view;
  const rowOptions = useMemo(() => listOptions(view), [view]);
  const parentRef = useRef<HTMLDivElement>(null);
  /** The reader is at the newest row: follow what arrives. False once they scroll up (or the window is not live). */
  const atBottom = useRef(true);
  const stick = () => {
    const el = parentRef.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  };
  const virtualizer = useVirtualizer({
    ...rowOptions,
    getScrollElement: () => parentRef.current,
    // The list mounts with the session's newest page (ChatView) and opens at its bottom: the rows it renders first are
    // the newest, not the oldest of the page (rendered, measured and thrown away a frame later). Past the end, the
    // offset is held to the last screen.
    initialOffset: () => view.estimates.reduce((sum, size) => sum + size, 0),
    // Rows measure themselves after they render; when the total height grows under a reader at the bottom,
    // the list stays at the bottom. Rows arriving above a reader who scrolled up (older pages, the window moving
    // up): the virtualizer keeps the row they were reading where it was (anchorTo 'end' in listOptions).
    onChange: () => stick(),
  });

  const items = virtualizer.getVirtualItems();
  usePrerender(rows, items[0]?.index ?? 0, items[items.length - 1]?.index ?? -1);
  const found = useReveal(store, model, view, virtualizer, setWindowEnd, atBottom);
  // A string, so the list re-renders only when the offered messages change (not on every message).
  const offers = useStore(store, (s) => (s.running ? '' : offeredIds(s.messages)));

  useLayoutEffect(() => {
    if (atBottom.current && rows.length) {
      virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
      stick();
    }
  }, [rows, virtualizer]);
  // A frame later the newest rows have their real heights; land exactly at the bottom.
  useEffect(() => {
    const frame = requestAnimationFrame(stick);
    return () => cancelAnimationFrame(frame);
  }, [rows]);

  /** More than a screen above the newest message (or in an older window): a button takes the reader back down. */
  const [farFromEnd, setFarFromEnd] = useState(false);
  const toNewest = () => {
    atBottom.current = true;
    setFarFromEnd(false);
    if (view.live) {
      virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
      stick();
    } else setWindowEnd(null); // the window moves to the newest rows; the layout effect on them scrolls to the end
  };

  /** Near the window's top or bottom: move it that way (and ask for older pages in time). */
  const moveWindow = (el: HTMLDivElement) => {
    const below = el.scrollHeight - el.scrollTop - el.clientHeight;
    const near = PREFETCH_SCREENS * el.clientHeight;
    if (el.scrollTop < near) {
      const end = shiftWindow(model, view, 'up');
      if (end !== undefined) setWindowEnd(end);
      // Older pages are asked for while the window is still a shift away from the first loaded row, so they are
      // usually there when the reader is.
      if (view.start <= WINDOW_SHIFT && store.getState().hasMore) void onNearTop();
    } else if (below < near) {
      const end = shiftWindow(model, view, 'down');
      if (end !== undefined) setWindowEnd(end);
    }
  };
  // Rows that arrived or a window that moved may leave the reader near an edge again without a scroll event (at
  // scrollTop 0 the browser fires none): check again once they are laid out.
  useEffect(() => {
    if (parentRef.current) moveWindow(parentRef.current);
  }, [view]);

  return (
    <>
      {/* Focusable, so the keyboard scrolls it (arrows, Page Up / Down) when no control in it has the focus. */}
      <div
        className="message-list"
        ref={parentRef}
        tabIndex={0}
        role="region"
        aria-label="Messages"
        data-testid="message-list"
        onScroll={(e) => {
          const el = e.currentTarget;
          const below = el.scrollHeight - el.scrollTop - el.clientHeight;
          atBottom.current = view.live && below < BOTTOM_SLACK_PX;
          const far = !view.live || below > el.clientHeight;
          if (far !== farFromEnd) setFarFromEnd(far);
          moveWindow(el);
        }}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index]!;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={row.kind === 'message' && row.message.id === found ? 'row row-found' : 'row'}
                data-testid={row.kind === 'message' && row.message.id === found ? 'row-found' : undefined}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row.kind === 'message' && (
                  <RenderGuard what="This message" resetKey={row.message}>
                    <MessageView message={row.message} actions={actions} offers={offerOf(offers, row.message.id)} />
                  </RenderGuard>
                )}
                {row.kind === 'notice' && (
                  <div className={`notice notice-${row.notice.kind}`} data-testid="notice">
                    <pre>{row.notice.text}</pre>
                  </div>
                )}
                {row.kind === 'streaming' && (
                  <RenderGuard what="This reply">
                    <StreamingRow store={store} />
                  </RenderGuard>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {farFromEnd && (
        <button
          className="jump-newest"
          data-testid="jump-newest"
          aria-label="Go to the newest message"
          title="Go to the newest message"
          onClick={toNewest}
        >
          <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
            <path
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
              strokeLinecap="round"
              strokeLinejoin="round"
              d="M8 3v10M3.5 8.5 8 13l4.5-4.5"
            />
          </svg>
        </button>
      )}
    </>
  );
}

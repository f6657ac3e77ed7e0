/**
 * The left column: sessions, newest first, under date headings (Today, Yesterday, …); a dot marks a running turn. Only the rows on screen (and a few around
 * them) exist: a person with thousands of chats had each one laid out before the first screen (5,000 rows: a 190 ms
 * task and a quarter of a second more before the window was usable). A row's "⋯" (shown on hover and on the open
 * chat) opens its actions in the row: pin it to the top (under "Pinned"), rename it in place, export it as Markdown,
 * or delete it after a confirmation in the row itself (docs/chat-ui.md "Sessions").
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { BridgeError } from '../../../shared/contract/define';
import { withHeadings, type ListEntry } from '../lib/session-groups';
import {
  createSession,
  deleteSession,
  exportSession,
  pinSession,
  renameSession,
  selectSession,
  sessionsStore,
} from '../stores/sessions-store';

/** A row's height and the gap under it (styles.css `.session-item`), and a date heading's (`.session-heading`). */
const ROW_PX = 34;
const HEADING_PX = 28;

type Session = ReturnType<typeof sessionsStore.getState>['sessions'][number];
const entryKey = (e: ListEntry<Session>) => (e.kind === 'heading' ? `h:${e.label}` : e.session.id);
/**
 * What one row is doing: shown, showing its actions (its "⋯"), renamed in place, asking to confirm a delete, or saying
 * why an action failed.
 */
type RowMode =
  | { id: number; kind: 'actions' | 'rename' | 'confirm-delete' }
  | { id: number; kind: 'error'; message: string };

/**
 * `flyout`: shown over the chat from the icon rail (components/SessionRail.tsx), closed by `onDone` once a chat is
 * opened or made.
 */
export function SessionList({ flyout = false, onDone }: { flyout?: boolean; onDone?: () => void } = {}) {
  const { sessions, activeId } = useStore(sessionsStore);
  const [mode, setMode] = useState<RowMode | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  // Under date headings (lib/session-groups.ts), recomputed when the list changes (a list open past midnight keeps its
  // headings until then: the next activity reads it again).
  const entries = useMemo(() => withHeadings(sessions, Date.now()), [sessions]);
  const rows = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (entries[i]!.kind === 'heading' ? HEADING_PX : ROW_PX),
    getItemKey: (i) => entryKey(entries[i]!),
    overscan: 12,
  });
  const attempt = (id: number, work: () => Promise<void>) =>
    void work().then(
      () => setMode(null),
      // The row is one line: a running turn (the usual refusal) is said in a few words, the whole text on hover.
      (e: Error) =>
        setMode({
          id,
          kind: 'error',
          message: e instanceof BridgeError && e.code === 'busy' ? `Stop its turn first. ${e.message}` : e.message,
        }),
    );
  return (
    <nav className={`session-list${flyout ? ' session-flyout' : ''}`} aria-label="Chats">
      <button
        className="primary new-session"
        data-testid="new-session"
        onClick={() => void createSession().then(() => onDone?.())}
      >
        New session
      </button>
      <div className="session-scroll" ref={scrollRef}>
        <div className="session-rows" style={{ height: rows.getTotalSize() }}>
          {rows.getVirtualItems().map((row) => {
            const entry = entries[row.index]!;
            if (entry.kind === 'heading') {
              return (
                <h2
                  key={row.key}
                  className="session-heading"
                  style={{ transform: `translateY(${row.start}px)` }}
                  data-testid="session-heading"
                >
                  {entry.label}
                </h2>
              );
            }
            const s = entry.session;
            const mine = mode?.id === s.id ? mode : null;
            return (
              <div
                key={row.key}
                className={`session-item${s.id === activeId ? ' active' : ''}${mine ? ` ${mine.kind}` : ''}`}
                style={{ transform: `translateY(${row.start}px)` }}
                onClick={() => (mine?.kind === 'actions' ? setMode(null) : !mine && (selectSession(s.id), onDone?.()))}
                onKeyDown={(e) => mine?.kind === 'actions' && e.key === 'Escape' && (e.preventDefault(), setMode(null))}
                data-testid="session-item"
              >
                {mine?.kind === 'rename' ? (
                  <RenameField
                    session={s}
                    onDone={(title) =>
                      title === null || title === s.title
                        ? setMode(null)
                        : attempt(s.id, () => renameSession(s.id, title))
                    }
                  />
                ) : mine?.kind === 'confirm-delete' ? (
                  <>
                    <span className="session-title" title="Delete this chat and everything in it?">
                      Delete?
                    </span>
                    <button
                      className="small danger"
                      data-testid="session-delete-confirm"
                      onClick={(e) => (e.stopPropagation(), attempt(s.id, () => deleteSession(s.id)))}
                    >
                      Delete
                    </button>
                    <button className="small ghost" onClick={(e) => (e.stopPropagation(), setMode(null))}>
                      Keep
                    </button>
                  </>
                ) : mine?.kind === 'error' ? (
                  <span
                    className="session-title session-error"
                    role="alert"
                    title={mine.message}
                    onClick={(e) => (e.stopPropagation(), setMode(null))}
                  >
                    {mine.message}
                  </span>
                ) : mine?.kind === 'actions' ? (
                  <>
                    <span className="session-title" title={s.title}>
                      {s.title || 'New chat'}
                    </span>
                    <span className="session-actions shown" data-testid="session-actions">
                      <button
                        className="icon ghost small"
                        aria-label={s.pinned_at !== null ? 'Unpin chat' : 'Pin chat'}
                        title={s.pinned_at !== null ? 'Unpin' : 'Pin to the top'}
                        data-testid="session-pin"
                        onClick={(e) => (
                          e.stopPropagation(), attempt(s.id, () => pinSession(s.id, s.pinned_at === null))
                        )}
                      >
                        <PinIcon />
                      </button>
                      <button
                        className="icon ghost small"
                        aria-label="Rename chat"
                        title="Rename"
                        data-testid="session-rename"
                        onClick={(e) => (e.stopPropagation(), setMode({ id: s.id, kind: 'rename' }))}
                      >
                        <PencilIcon />
                      </button>
                      <button
                        className="icon ghost small"
                        aria-label="Export chat as Markdown"
                        title="Export as Markdown"
                        data-testid="session-export"
                        onClick={(e) => (e.stopPropagation(), attempt(s.id, () => exportSession(s.id)))}
                      >
                        <DownloadIcon />
                      </button>
                      <button
                        className="icon ghost small danger"
                        aria-label="Delete chat"
                        title="Delete"
                        data-testid="session-delete"
                        onClick={(e) => (e.stopPropagation(), setMode({ id: s.id, kind: 'confirm-delete' }))}
                      >
                        <TrashIcon />
                      </button>
                      <button
                        className="icon ghost small"
                        aria-label="Close the chat's actions"
                        title="Close"
                        onClick={(e) => (e.stopPropagation(), setMode(null))}
                      >
                        ×
                      </button>
                    </span>
                  </>
                ) : (
                  <>
                    {/* The title is the button that opens the chat (the row's click does the same for the pointer). */}
                    <button
                      className="session-open"
                      aria-current={s.id === activeId ? 'page' : undefined}
                      title={s.title}
                      onClick={(e) => (e.stopPropagation(), selectSession(s.id), onDone?.())}
                    >
                      {s.running && <span className="running-dot" title="running" aria-hidden="true" />}
                      <span className="session-title">{s.title || 'New chat'}</span>
                      {s.running && <span className="sr-only">, running</span>}
                    </button>
                    {/* One small button, so the row is the place to click to open the chat; its actions open in the row. */}
                    <span className="session-actions">
                      <button
                        className="icon ghost small"
                        aria-label="Chat actions"
                        title="Pin, rename, export or delete"
                        data-testid="session-more"
                        onClick={(e) => (e.stopPropagation(), setMode({ id: s.id, kind: 'actions' }))}
                      >
                        <MoreIcon />
                      </button>
                    </span>
                  </>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </nav>
  );
}

// Drawn, not typed: an emoji or a symbol character shows as an empty box where the system has no font for it.
/** A 13-pixel icon (or `size`) of one stroked path on a 16-unit grid. */
export function StrokeIcon({ d, size = 13 }: { d: string; size?: number }) {
  return (
    <svg viewBox="0 0 16 16" width={size} height={size} aria-hidden="true">
      <path fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" d={d} />
    </svg>
  );
}

const PencilIcon = () => <StrokeIcon d="M10.5 2.5l3 3L5 14H2v-3z M9 4l3 3" />;
const PinIcon = () => <StrokeIcon d="M6 2h4l-.6 4 2.6 2.5H4L6.6 6zM8 8.5V14" />;
const DownloadIcon = () => <StrokeIcon d="M8 2v8M4.5 6.5 8 10l3.5-3.5M2.5 13.5h11" />;
const TrashIcon = () => <StrokeIcon d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4M6.8 6.5v5M9.2 6.5v5" />;

function MoreIcon() {
  return (
    <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true">
      <circle cx="3.5" cy="8" r="1.3" fill="currentColor" />
      <circle cx="8" cy="8" r="1.3" fill="currentColor" />
      <circle cx="12.5" cy="8" r="1.3" fill="currentColor" />
    </svg>
  );
}

/** The title in an input: Enter or leaving the field keeps it, Escape (or an empty field) gives it up (`null`). */
function RenameField({ session, onDone }: { session: Session; onDone: (title: string | null) => void }) {
  const [title, setTitle] = useState(session.title);
  const done = useRef(false);
  const finish = (value: string | null) => {
    if (done.current) return;
    done.current = true;
    const title = value?.trim().slice(0, 200) ?? '';
    onDone(title === '' ? null : title); // an emptied field keeps the old title
  };
  return (
    <input
      className="session-rename"
      data-testid="session-rename-input"
      aria-label="Chat title"
      autoFocus
      value={title}
      maxLength={200}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => setTitle(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') finish(title);
        else if (e.key === 'Escape') finish(null);
      }}
      onBlur={() => finish(title)}
    />
  );
}

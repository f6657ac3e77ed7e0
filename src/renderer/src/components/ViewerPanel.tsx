/**
 * The viewer beside the chat (docs/viewer.md "Tabs"): one tab per file (reused by path), closable, with
 * keyboard shortcuts; the panel is resized by dragging its left edge and can be maximized over the chat.
 * Shortcuts: Alt+W closes the tab, Alt+] / Alt+[ (or Alt+PageDown / Alt+PageUp) switch tabs, Alt+M maximizes,
 * Escape leaves the maximized view. A path typed into the bar opens in a new tab. In a window too narrow for both
 * (lib/layout.ts `overlay`) it shows over the chat as a page of its own: "Chat" (or Escape) puts it aside, the header's
 * "Viewer" button (App.tsx) and any open bring it back.
 */
import { Suspense, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { sessionsStore } from '../stores/sessions-store';
import { skald } from '../bridge/skald';
import {
  closeTab,
  closeViewer,
  cycleTab,
  hideViewer,
  onReleaseHandle,
  openInViewer,
  setViewerWidth,
  toggleMaximized,
  viewerStore,
} from '../stores/viewer-store';
import { lazyPage } from '../lib/lazy-page';
import { VIEWER_MIN_PX } from '../lib/layout';
import { focusBackFromViewer } from '../lib/viewer-focus';
import { PANEL_ID, tabId, ViewerTabs } from './viewer/ViewerTabs';
import './viewer/viewer.css';

/** The file views (code, Markdown, PDF, LaTeX, diff…) load with the first open file, or when the first page is idle. */
export const FileView = lazyPage(
  () => import('./viewer/FileView'),
  (m) => m.FileView,
);

onReleaseHandle((handle) => void skald.viewer.release({ handle }).catch(() => {}));

function useShortcuts(isOpen: boolean, isOverlay: boolean): void {
  // Over the chat, Escape puts the viewer aside: in the capture phase, before the app's own Escape (which stops a
  // running turn), so the key does that and nothing else.
  useEffect(() => {
    if (!isOpen || !isOverlay) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      putAside();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [isOpen, isOverlay]);
  useEffect(() => {
    if (!isOpen) return;
    const onKey = (e: KeyboardEvent) => {
      const { activeId, isMaximized } = viewerStore.getState();
      if (e.key === 'Escape' && isMaximized) {
        toggleMaximized();
        return;
      }
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const key = e.key.toLowerCase();
      if (key === 'w' && activeId) closeTab(activeId);
      else if (key === ']' || e.key === 'PageDown') cycleTab(1);
      else if (key === '[' || e.key === 'PageUp') cycleTab(-1);
      else if (key === 'm') toggleMaximized();
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isOpen]);
}

/**
 * Puts the viewer over the chat aside (Escape or its "Chat" button). The focus goes back with the person, when it was
 * in the viewer: to the link that opened the file, else the message box (never lost with the viewer).
 */
function putAside(): void {
  const hadFocus = document.querySelector('aside.viewer')?.contains(document.activeElement) ?? false;
  hideViewer();
  // Once the chat is shown again (a11y.css hides it under the viewer, and hidden elements take no focus).
  requestAnimationFrame(() => {
    if (!focusBackFromViewer() && hadFocus) document.getElementById('composer')?.focus();
  });
}

/** How far one arrow key moves the viewer's edge. */
const KEY_STEP = 24;

/** Where the chat page's layout puts the viewer (lib/layout.ts): beside the chat at `width`, or over it. */
export interface ViewerPlacement {
  mode: 'docked' | 'overlay';
  width: number;
  maxWidth: number;
}

export function ViewerPanel({ placement }: { placement: ViewerPlacement }) {
  const { tabs, activeId, isMaximized, isHidden } = useStore(viewerStore);
  const [typed, setTyped] = useState('');
  const drag = useRef<{ x: number; width: number } | null>(null);
  const isOverlay = placement.mode === 'overlay';
  useShortcuts(tabs.length > 0 && !(isOverlay && isHidden), isOverlay);
  if (tabs.length === 0 || (isOverlay && isHidden)) return null;
  const active = tabs.find((t) => t.id === activeId) ?? tabs[0]!;
  const isOver = isMaximized || isOverlay;

  const onPointerDown = (e: React.PointerEvent) => {
    drag.current = { x: e.clientX, width: placement.width };
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: React.PointerEvent) => {
    if (drag.current) setViewerWidth(Math.min(placement.maxWidth, drag.current.width + drag.current.x - e.clientX));
  };

  return (
    <aside
      aria-label="Viewer"
      onKeyDown={(e) => {
        // Escape in the viewer (beside the chat, not maximized) goes back to the link the file was opened from.
        if (e.key === 'Escape' && !e.defaultPrevented && !isMaximized && !isOverlay && focusBackFromViewer())
          e.preventDefault();
      }}
      className={`viewer${isMaximized ? ' maximized' : ''}${isOverlay ? ' over-chat' : ''}`}
      data-testid="viewer"
      style={isOver ? undefined : { width: placement.width }}
    >
      {!isOver && (
        // Focusable, so the keyboard resizes it too: Arrow Left widens the viewer, Arrow Right narrows it.
        <div
          className="viewer-resize"
          role="separator"
          aria-label="Resize the viewer"
          aria-orientation="vertical"
          aria-valuenow={placement.width}
          aria-valuemin={VIEWER_MIN_PX}
          aria-valuemax={placement.maxWidth}
          tabIndex={0}
          onKeyDown={(e) => {
            if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
            e.preventDefault();
            const step = e.key === 'ArrowLeft' ? KEY_STEP : -KEY_STEP;
            setViewerWidth(Math.min(placement.maxWidth, placement.width + step));
          }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={() => (drag.current = null)}
        />
      )}
      <ViewerTabs tabs={tabs} activeId={active.id} />
      <div className="viewer-head">
        <span className="viewer-path" data-testid="viewer-path" title={active.absolute ?? active.path}>
          <bdi>{active.absolute ?? active.path}</bdi>
        </span>
        <form
          className="viewer-open"
          onSubmit={(e) => {
            e.preventDefault();
            if (typed.trim()) openInViewer(typed.trim(), { sessionId: sessionsStore.getState().activeId });
            setTyped('');
          }}
        >
          <input
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="Open a path…"
            aria-label="Open a path"
            data-testid="viewer-open-path"
          />
        </form>
        {isOverlay ? (
          <button
            onClick={putAside}
            aria-label="Back to the chat"
            title="Back to the chat (Esc)"
            data-testid="viewer-hide"
          >
            Chat
          </button>
        ) : (
          <button
            onClick={toggleMaximized}
            aria-label={isMaximized ? 'Restore the viewer' : 'Maximize the viewer'}
            title="Alt+M"
          >
            {isMaximized ? '⤡' : '⤢'}
          </button>
        )}
        <button onClick={closeViewer} aria-label="Close viewer" title="Close every tab">
          ×
        </button>
      </div>
      <div className="viewer-body" role="tabpanel" id={PANEL_ID} aria-labelledby={tabId(active)}>
        <Suspense fallback={null}>
          <FileView key={active.id} tab={active} />
        </Suspense>
      </div>
    </aside>
  );
}

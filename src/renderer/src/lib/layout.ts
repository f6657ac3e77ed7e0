/**
 * How the chat page shares the window (docs/ui.md "Fits any window"): the session list, the chat and the viewer.
 * The chat comes first: from 800 px up it keeps room for a message box of at least 300 px and a chat bar whose fields
 * wrap rather than cut. What gives way, in order: the viewer narrows (never below VIEWER_MIN), the session list
 * collapses to an icon rail, and at last the viewer leaves the row and shows over the chat, as a page of its own the
 * person switches to and back. Pure, so that the breakpoints are tested without a browser (lib/layout.test.ts).
 */

/** The session list's width when shown in full, and the icon rail's (styles.css `.session-list`, `.session-rail`). */
export const LIST_PX = 220;
export const RAIL_PX = 52;
/** The chat's least width beside the viewer: a 300 px message box, its buttons and the column's padding. */
export const CHAT_MIN_PX = 520;
/** The chat's width below which the full session list gives way to the rail (more room for the messages). */
export const CHAT_COMFORT_PX = 640;
/** The viewer's least width when docked beside the chat; below it, it shows over the chat instead. */
export const VIEWER_MIN_PX = 360;
/** The viewer's width until the person drags its edge, where the window has room for it. */
export const VIEWER_DEFAULT_PX = 560;

export interface LayoutInput {
  /** The window's inner width. */
  width: number;
  /** Whether the viewer has any tab open. */
  viewerOpen: boolean;
  /** The viewer's width as the person left it by dragging its edge; `null` until then. */
  viewerWidth: number | null;
}

export interface LayoutPlan {
  list: 'full' | 'rail';
  /** `none`: no tab open; `docked`: beside the chat; `overlay`: over the chat, as a page of its own. */
  viewer: 'none' | 'docked' | 'overlay';
  /** The docked viewer's width (0 otherwise). */
  viewerWidth: number;
  /** The widest the docked viewer may be dragged (0 when not docked): the chat at its least width beside the rail. */
  viewerMaxWidth: number;
}

/**
 * Until the person sets the viewer's width, the full list is kept while the chat has a comfortable width beside a
 * viewer of VIEWER_MIN_PX or more (the viewer takes what is left, up to VIEWER_DEFAULT_PX). A width the person dragged
 * to is kept over the list: the list folds to the rail when both do not fit. Either way, where even the rail leaves
 * less than VIEWER_MIN_PX beside the chat's least width, the viewer goes over the chat.
 */
export function planLayout({ width, viewerOpen, viewerWidth }: LayoutInput): LayoutPlan {
  if (!viewerOpen)
    return {
      list: width - LIST_PX >= CHAT_COMFORT_PX ? 'full' : 'rail',
      viewer: 'none',
      viewerWidth: 0,
      viewerMaxWidth: 0,
    };
  const fullRoom = width - LIST_PX - CHAT_COMFORT_PX;
  const railRoom = width - RAIL_PX - CHAT_MIN_PX;
  if (railRoom < VIEWER_MIN_PX) return { list: 'rail', viewer: 'overlay', viewerWidth: 0, viewerMaxWidth: 0 };
  const wanted = viewerWidth ?? Math.min(VIEWER_DEFAULT_PX, fullRoom >= VIEWER_MIN_PX ? fullRoom : railRoom);
  const docked = (list: 'full' | 'rail', room: number): LayoutPlan => ({
    list,
    viewer: 'docked',
    viewerWidth: Math.max(VIEWER_MIN_PX, Math.min(wanted, room)),
    viewerMaxWidth: railRoom,
  });
  return wanted <= fullRoom ? docked('full', fullRoom) : docked('rail', railRoom);
}

/**
 * The viewer's view state (docs/viewer.md "Tabs"): open tabs (one per file, reused by path), the active tab, the
 * panel's width and whether it is maximized. The files themselves live in the core; a tab holds the path it was
 * opened with and, once resolved, the file's absolute path so that a second open of the same file reuses it.
 */
import { createStore } from 'zustand/vanilla';
import { VIEWER_MIN_PX } from '../lib/layout';

export interface ViewerTab {
  id: string;
  /** As asked (a tool card's path, a typed path, a link). */
  path: string;
  /** Known once resolved: what tabs are reused by. */
  absolute: string | null;
  title: string;
  sessionId: number | null;
  toolCallId: string | null;
  /** Handle of the file whose link opened this one (relative paths resolve against its folder). */
  relativeTo: string | null;
  /** Line to reveal (a tool call that names a range). */
  line: number | null;
  /**
   * Which request to reveal `line` came last: every open that names a line takes a new number, so asking for the
   * same line again (after scrolling away) reveals it again.
   */
  lineRequest: number;
  /** Bumped to reload the tab (live reload, retry). */
  reloadKey: number;
  /** The person said yes to a file outside the working directory. */
  allowOutside: boolean;
  /** The handle the tab holds now; let go of when the tab closes or resolves again. */
  handle: string | null;
  /** A diff tab: the write call whose before/after it shows (docs/viewer.md "Diff and revert"). */
  diffOf: string | null;
  /** A diff tab opened by the card's "Revert this change": it asks the core to revert once, on open. */
  revertOnOpen?: boolean;
}

export interface ViewerState {
  tabs: ViewerTab[];
  activeId: string | null;
  /** As the person dragged it; `null` until then (the layout chooses: lib/layout.ts). */
  width: number | null;
  isMaximized: boolean;
  /**
   * Put aside while it shows over the chat in a narrow window (lib/layout.ts `overlay`): the tabs stay, the chat shows;
   * any open brings it back. Beside the chat it is never hidden.
   */
  isHidden: boolean;
}

const initial: ViewerState = { tabs: [], activeId: null, width: null, isMaximized: false, isHidden: false };
export const viewerStore = createStore<ViewerState>(() => ({ ...initial }));

let nextId = 1;
let nextLineRequest = 1;

export interface OpenOptions {
  sessionId?: number | null;
  toolCallId?: string | null;
  relativeTo?: string | null;
  line?: number | null;
}

function titleOf(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

export function openInViewer(path: string, options: OpenOptions = {}): string {
  const state = viewerStore.getState();
  const same = state.tabs.find(
    (t) =>
      t.diffOf === null &&
      ((t.path === path && t.relativeTo === (options.relativeTo ?? null)) ||
        (t.absolute !== null && t.absolute === path)),
  );
  if (same) {
    const updated: ViewerTab = {
      ...same,
      line: options.line ?? same.line,
      lineRequest: options.line != null ? nextLineRequest++ : same.lineRequest,
      toolCallId: options.toolCallId ?? same.toolCallId,
    };
    viewerStore.setState({
      tabs: state.tabs.map((t) => (t.id === same.id ? updated : t)),
      activeId: same.id,
      isHidden: false,
    });
    return same.id;
  }
  const tab: ViewerTab = {
    id: `tab-${nextId++}`,
    path,
    absolute: null,
    title: titleOf(path),
    sessionId: options.sessionId ?? null,
    toolCallId: options.toolCallId ?? null,
    relativeTo: options.relativeTo ?? null,
    line: options.line ?? null,
    lineRequest: options.line != null ? nextLineRequest++ : 0,
    reloadKey: 0,
    allowOutside: false,
    handle: null,
    diffOf: null,
  };
  viewerStore.setState({ tabs: [...state.tabs, tab], activeId: tab.id, isHidden: false });
  return tab.id;
}

/**
 * After resolving: the tab remembers its file by absolute path (so a link's tab no longer needs the tab it came
 * from), and a tab that turns out to be a file already open elsewhere folds into that tab. Returns the handle
 * the tab held before (the caller lets go of it).
 */
export function tabResolved(id: string, absolute: string, title: string, handle: string): void {
  const state = viewerStore.getState();
  const duplicate = state.tabs.find((t) => t.id !== id && t.diffOf === null && t.absolute === absolute);
  if (duplicate) {
    // The folded tab's line (a tool call's range: docs/viewer.md "How a file reaches the viewer") moves with it.
    const folded = state.tabs.find((t) => t.id === id);
    const kept: ViewerTab =
      folded?.line != null
        ? {
            ...duplicate,
            line: folded.line,
            lineRequest: folded.lineRequest,
            toolCallId: folded.toolCallId ?? duplicate.toolCallId,
          }
        : { ...duplicate, toolCallId: folded?.toolCallId ?? duplicate.toolCallId };
    viewerStore.setState({
      tabs: state.tabs.filter((t) => t.id !== id).map((t) => (t.id === duplicate.id ? kept : t)),
      activeId: duplicate.id,
    });
    releaseHandle(handle);
    return;
  }
  const tab = state.tabs.find((t) => t.id === id);
  if (!tab) {
    releaseHandle(handle); // closed while it was resolving
    return;
  }
  if (tab.handle && tab.handle !== handle) releaseHandle(tab.handle);
  viewerStore.setState({
    tabs: state.tabs.map((t) =>
      t.id === id ? { ...t, absolute, title, handle, path: absolute, relativeTo: null } : t,
    ),
  });
}

/** Set by the panel: tells the core a handle is no longer needed. */
let releaseHandle: (handle: string) => void = () => {};
export function onReleaseHandle(release: (handle: string) => void): void {
  releaseHandle = release;
}

export function updateTab(id: string, patch: Partial<Pick<ViewerTab, 'allowOutside'>>): void {
  viewerStore.setState((s) => ({ tabs: s.tabs.map((t) => (t.id === id ? { ...t, ...patch } : t)) }));
}

export function reloadTab(id: string): void {
  viewerStore.setState((s) => ({ tabs: s.tabs.map((t) => (t.id === id ? { ...t, reloadKey: t.reloadKey + 1 } : t)) }));
}

export function activateTab(id: string): void {
  if (viewerStore.getState().tabs.some((t) => t.id === id)) viewerStore.setState({ activeId: id });
}

/** Moves to the next (+1) or previous (-1) tab, wrapping around. */
export function cycleTab(step: 1 | -1): void {
  const { tabs, activeId } = viewerStore.getState();
  if (tabs.length === 0) return;
  const at = Math.max(
    0,
    tabs.findIndex((t) => t.id === activeId),
  );
  viewerStore.setState({ activeId: tabs[(at + step + tabs.length) % tabs.length]!.id });
}

export function closeTab(id: string): void {
  const { tabs, activeId } = viewerStore.getState();
  const at = tabs.findIndex((t) => t.id === id);
  if (at < 0) return;
  const rest = tabs.filter((t) => t.id !== id);
  const handle = tabs[at]!.handle;
  if (handle) releaseHandle(handle);
  const nextActive = activeId !== id ? activeId : (rest[Math.min(at, rest.length - 1)]?.id ?? null);
  viewerStore.setState({
    tabs: rest,
    activeId: nextActive,
    isMaximized: rest.length ? viewerStore.getState().isMaximized : false,
  });
}

export function setViewerWidth(width: number): void {
  viewerStore.setState({ width: Math.max(VIEWER_MIN_PX, Math.round(width)) });
}

export function toggleMaximized(): void {
  viewerStore.setState((s) => ({ isMaximized: !s.isMaximized }));
}

/** Over the chat (a narrow window): back to the chat, the tabs kept; `showViewer` brings them back. */
export function hideViewer(): void {
  viewerStore.setState({ isHidden: true });
}

export function showViewer(): void {
  viewerStore.setState({ isHidden: false });
}

/** A write call's diff in its own tab (one per call). */
export function openDiffTab(toolCallId: string, path: string, sessionId: number | null, revert = false): string {
  const state = viewerStore.getState();
  const same = state.tabs.find((t) => t.diffOf === toolCallId);
  if (same) {
    viewerStore.setState({
      activeId: same.id,
      isHidden: false,
      tabs: state.tabs.map((t) =>
        t.id === same.id ? { ...t, revertOnOpen: revert, reloadKey: t.reloadKey + (revert ? 1 : 0) } : t,
      ),
    });
    return same.id;
  }
  const tab: ViewerTab = {
    id: `tab-${nextId++}`,
    path,
    absolute: null,
    title: `Δ ${titleOf(path)}`,
    sessionId,
    toolCallId,
    relativeTo: null,
    line: null,
    lineRequest: 0,
    reloadKey: 0,
    allowOutside: false,
    handle: null,
    diffOf: toolCallId,
    revertOnOpen: revert,
  };
  viewerStore.setState({ tabs: [...state.tabs, tab], activeId: tab.id, isHidden: false });
  return tab.id;
}

/** The `open_file` event and a clicked tool path land here. */
export function showInViewer(path: string, toolCallId: string | null, options: OpenOptions = {}): void {
  openInViewer(path, { ...options, toolCallId });
}

export function closeViewer(): void {
  for (const t of viewerStore.getState().tabs) if (t.handle) releaseHandle(t.handle);
  viewerStore.setState({ tabs: [], activeId: null, isMaximized: false, isHidden: false });
}

/** For tests: back to no tabs. */
export function resetViewerStore(): void {
  viewerStore.setState({ ...initial });
  nextId = 1;
  nextLineRequest = 1;
}

/** A watched file changed: the tab holding its handle reloads (live reload keeps its scroll position). */
export function viewerFileChanged(handle: string): void {
  const tab = viewerStore.getState().tabs.find((t) => t.handle === handle);
  if (tab) reloadTab(tab.id);
}

/** A tool wrote a file (`file_changed`): every tab showing it reloads. */
export function viewerPathChanged(path: string): void {
  for (const t of viewerStore.getState().tabs)
    if (t.diffOf === null && (t.absolute === path || t.path === path)) reloadTab(t.id);
}

/** Which file the viewer shows; opened by a clicked tool path or `show_file_to_user` (open_file event). */
import { createStore } from 'zustand/vanilla';

export interface ViewerState {
  path: string | null;
  toolCallId: string | null;
  openedAt: number;
}

export const viewerStore = createStore<ViewerState>(() => ({ path: null, toolCallId: null, openedAt: 0 }));

export function showInViewer(path: string, toolCallId: string | null): void {
  viewerStore.setState({ path, toolCallId, openedAt: Date.now() });
}

export function closeViewer(): void {
  viewerStore.setState({ path: null, toolCallId: null });
}

/**
 * The viewer's panel: it receives the open-file requests (a clicked tool path, `show_file_to_user`). Rendering
 * of each file kind belongs to the viewer's own module; here it shows which file was asked for.
 */
import { useStore } from 'zustand';
import { closeViewer, viewerStore } from '../stores/viewer-store';

export function ViewerPanel() {
  const { path } = useStore(viewerStore);
  if (!path) return null;
  return (
    <aside className="viewer" data-testid="viewer">
      <div className="viewer-head">
        <span className="viewer-path" data-testid="viewer-path">{path}</span>
        <button onClick={closeViewer} aria-label="Close viewer">×</button>
      </div>
    </aside>
  );
}

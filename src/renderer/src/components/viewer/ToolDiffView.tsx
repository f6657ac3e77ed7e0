/**
 * A write call's before/after, side by side or inline, in Monaco's diff editor (docs/viewer.md "Diff and
 * revert"), and "Revert this change": the core restores the before-image as a gated write (its approval shows in
 * the chat and the Inbox). When the file changed after the call, the three versions are shown and the person
 * decides whether to revert anyway.
 */
import { useEffect, useRef, useState } from 'react';
import type * as Monaco from 'monaco-editor/editor/editor.api.js';
import type { FileImage, RevertResult } from '../../../../shared/contract/viewer';
import { skald } from '../../bridge/skald';
import { loadMonaco } from './CodeView';
import { CodeView } from './CodeView';
import { useTheme } from './theme';

type Diff = Awaited<ReturnType<typeof skald.viewer.diff>>;

function describe(image: FileImage, what: string): string {
  if (image.state === 'absent') return `(no file ${what})`;
  if (image.state === 'skipped') return `(not kept ${what}: binary, too large or not readable)`;
  return image.text ?? '';
}

/** The file's name first, then its folder dimmed and cut from the left, so the name is never what is hidden. */
function DiffPath({ path }: { path: string | null }) {
  if (path === null) return <span className="muted small viewer-diff-path">Loading…</span>;
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return (
    <span className="small viewer-diff-path" title={path} data-testid="viewer-diff-path">
      <span className="viewer-diff-name">{path.slice(cut + 1)}</span>
      {cut >= 0 && (
        <span className="muted viewer-diff-folder" dir="rtl">
          <bdi>{path.slice(0, cut + 1)}</bdi>
        </span>
      )}
    </span>
  );
}

/**
 * Each side's name for a screen reader, set on the two editors themselves: every options pass of the diff editor
 * empties `originalAriaLabel` / `modifiedAriaLabel` again (monaco-editor 0.57), leaving both editors unnamed.
 */
function nameSides(diffEditor: Monaco.editor.IStandaloneDiffEditor): void {
  diffEditor.getOriginalEditor().updateOptions({ ariaLabel: 'The file before this call, read only' });
  diffEditor.getModifiedEditor().updateOptions({ ariaLabel: 'The file after this call, read only' });
}

export function ToolDiffView({ toolCallId, revertOnOpen }: { toolCallId: string; revertOnOpen: boolean }) {
  const [diff, setDiff] = useState<Diff | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isInline, setInline] = useState(false);
  const [revert, setRevert] = useState<RevertResult | null>(null);
  const [busy, setBusy] = useState(false);
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Monaco.editor.IStandaloneDiffEditor | null>(null);
  const theme = useTheme();

  useEffect(() => {
    skald.viewer.diff({ toolCallId }).then(setDiff, (e: Error) => setError(e.message));
  }, [toolCallId]);

  useEffect(() => {
    if (!diff || !host.current) return;
    let live = true;
    let made: Monaco.editor.IStandaloneDiffEditor | null = null;
    void loadMonaco().then((monaco) => {
      if (!live || !host.current) return;
      // Side by side means side by side: Monaco would fall back to inline below 900 px, the viewer's usual width.
      made = monaco.editor.createDiffEditor(host.current, {
        readOnly: true,
        originalEditable: false,
        automaticLayout: true,
        renderSideBySide: !isInline,
        useInlineViewWhenSpaceIsLimited: false,
        // Else the overview's viewport box ends short of the bottom even when the whole file is on screen.
        scrollBeyondLastLine: false,
        theme: theme === 'light' ? 'vs' : 'vs-dark',
        minimap: { enabled: false },
      });
      nameSides(made);
      made.setModel({
        original: monaco.editor.createModel(describe(diff.before, 'before this call'), diff.language),
        modified: monaco.editor.createModel(describe(diff.after, 'after this call'), diff.language),
      });
      editor.current = made;
      host.current.dataset.ready = 'yes';
    });
    return () => {
      live = false;
      const model = made?.getModel();
      made?.dispose();
      model?.original.dispose();
      model?.modified.dispose();
      editor.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [diff]);

  useEffect(() => {
    editor.current?.updateOptions({ renderSideBySide: !isInline });
    if (editor.current) nameSides(editor.current);
  }, [isInline]);

  // Monaco's theme is global; this tab may be the only editor open when the app's theme changes.
  useEffect(() => {
    void loadMonaco().then((monaco) => monaco.editor.setTheme(theme === 'light' ? 'vs' : 'vs-dark'));
  }, [theme]);

  const asked = useRef(false);
  useEffect(() => {
    if (revertOnOpen && !asked.current) {
      asked.current = true;
      void doRevert(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [revertOnOpen]);

  const doRevert = async (force: boolean) => {
    setBusy(true);
    try {
      setRevert(await skald.viewer.revert({ toolCallId, ...(force ? { force: true } : {}) }));
    } catch (e) {
      setRevert({ status: 'unavailable', message: (e as Error).message });
    } finally {
      setBusy(false);
    }
  };

  if (error)
    return (
      <div className="viewer-message error" data-testid="viewer-error">
        {error}
      </div>
    );
  return (
    <div className="viewer-diff" data-testid="viewer-diff">
      <div className="viewer-toolbar">
        <DiffPath path={diff?.path ?? null} />
        <button className={!isInline ? 'active' : ''} onClick={() => setInline(false)}>
          Side by side
        </button>
        <button className={isInline ? 'active' : ''} onClick={() => setInline(true)}>
          Inline
        </button>
        <button className="danger" disabled={busy || !diff} onClick={() => void doRevert(false)} data-testid="revert">
          Revert this change
        </button>
      </div>
      {revert?.status === 'started' && (
        <div className="viewer-note" data-testid="revert-status">
          Revert requested: it waits for your approval in the chat (or runs at once if a rule allows it).
        </div>
      )}
      {revert?.status === 'unavailable' && (
        <div className="viewer-note" data-testid="revert-status">
          {revert.message}
        </div>
      )}
      {revert?.status === 'conflict' ? (
        <div className="viewer-conflict" data-testid="revert-conflict">
          <div className="viewer-note">
            {revert.message}{' '}
            <button className="danger" disabled={busy} onClick={() => void doRevert(true)}>
              Revert anyway
            </button>{' '}
            <button onClick={() => setRevert(null)}>Keep the file as it is</button>
          </div>
          <div className="viewer-three">
            {(
              [
                ['Before this call', revert.before],
                ['After this call', revert.after],
                ['Now', revert.current],
              ] as const
            ).map(([label, image]) => (
              <section key={label}>
                <h4>{label}</h4>
                <CodeView
                  text={describe(image, label.toLowerCase())}
                  language={diff?.language ?? 'plaintext'}
                  line={null}
                />
              </section>
            ))}
          </div>
        </div>
      ) : null}
      {/* Always mounted (Monaco lives in it); hidden while the three versions are shown in its place. */}
      <div
        className="viewer-diff-editor"
        ref={host}
        data-testid="viewer-diff-editor"
        hidden={revert?.status === 'conflict'}
      />
    </div>
  );
}

/**
 * One tab's content (docs/viewer.md): resolves the tab's path to a handle through the core, then picks the
 * renderer by kind. Every outcome is a clear state — loading, "outside the working directory: show it?",
 * refused / missing / not a file / too large, or the file (with a note when only its first part is shown).
 */
import { useCallback, useEffect, useState } from 'react';
import type { ResolveResult, ViewerFile } from '../../../../shared/contract/viewer';
import { skald } from '../../bridge/skald';
import { openInViewer, tabResolved, updateTab, type ViewerTab } from '../../stores/viewer-store';
import { BinaryView } from './BinaryView';
import { CodeView } from './CodeView';
import { fetchText } from './file-text';
import { formatBytes } from './format';
import { HtmlView } from './HtmlView';
import { ImageView } from './ImageView';
import { MarkdownView } from './MarkdownView';
import { LatexView } from './LatexView';
import { PdfView } from './PdfView';
import { ToolDiffView } from './ToolDiffView';

const TEXT_KINDS = new Set(['markdown', 'text', 'html', 'latex']);

export function FileView({ tab }: { tab: ViewerTab }) {
  if (tab.diffOf)
    return <ToolDiffView key={tab.reloadKey} toolCallId={tab.diffOf} revertOnOpen={tab.revertOnOpen === true} />;
  return <PathView tab={tab} />;
}

function PathView({ tab }: { tab: ViewerTab }) {
  const [result, setResult] = useState<ResolveResult | null>(null);
  const [text, setText] = useState<string | null>(null);
  const [textError, setTextError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const abort = new AbortController();
    const request = {
      path: tab.path,
      ...(tab.sessionId !== null ? { sessionId: tab.sessionId } : {}),
      ...(tab.relativeTo ? { relativeTo: tab.relativeTo } : {}),
      ...(tab.allowOutside ? { allowOutside: true } : {}),
    };
    skald.viewer.resolve(request).then(
      (r) => {
        if (!live) return;
        if (r.status === 'ok') {
          tabResolved(tab.id, r.file.absolute, r.file.name, r.file.handle);
          if (TEXT_KINDS.has(r.file.kind)) {
            fetchText(r.file.url, abort.signal).then(
              (t) => {
                if (!live) return;
                setText(t);
                setTextError(null);
                setResult(r);
              },
              (e: Error) => live && !abort.signal.aborted && setTextError(e.message),
            );
            return;
          }
        }
        setResult(r);
      },
      (e: Error) => live && setResult({ status: 'error', code: 'unreadable', message: e.message }),
    );
    return () => {
      live = false;
      abort.abort();
    };
    // The path becomes absolute once resolved (tabResolved): that alone must not resolve again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tab.id, tab.allowOutside, tab.reloadKey]);

  if (textError)
    return (
      <div className="viewer-message error" data-testid="viewer-error">
        {textError}
      </div>
    );
  if (!result)
    return (
      <div className="viewer-message muted" data-testid="viewer-loading">
        Loading {tab.title}…
      </div>
    );
  if (result.status === 'confirm') {
    return (
      <div className="viewer-message" data-testid="viewer-confirm">
        <p>{result.message}</p>
        <button className="primary" onClick={() => updateTab(tab.id, { allowOutside: true })}>
          Show it
        </button>
      </div>
    );
  }
  if (result.status === 'error') {
    return (
      <div
        className={`viewer-message ${result.code === 'refused' ? 'error' : ''}`}
        data-testid="viewer-error"
        data-code={result.code}
      >
        {result.message}
      </div>
    );
  }
  return <FileBody file={result.file} tab={tab} text={text} />;
}

function FileBody({ file, tab, text }: { file: ViewerFile; tab: ViewerTab; text: string | null }) {
  const openRelative = useCallback(
    (path: string) => openInViewer(path, { relativeTo: file.handle, sessionId: tab.sessionId }),
    [file.handle, tab.sessionId],
  );
  const isCut = file.size > file.limit;
  return (
    <div className="viewer-file" data-testid="viewer-file" data-kind={file.kind}>
      {isCut && (
        <div className="viewer-note" data-testid="viewer-truncated">
          {file.name} is {formatBytes(file.size)}; showing its first {formatBytes(file.limit)}.
        </div>
      )}
      {file.kind === 'markdown' && <MarkdownView text={text ?? ''} onOpenPath={openRelative} />}
      {file.kind === 'text' && (
        <CodeView text={text ?? ''} language={file.language} line={tab.line} lineRequest={tab.lineRequest} />
      )}
      {file.kind === 'latex' && <LatexView file={file} text={text ?? ''} reloadKey={tab.reloadKey} />}
      {file.kind === 'html' && (
        <HtmlView file={file} text={text ?? ''} reloadKey={tab.reloadKey} onOpenPath={openRelative} />
      )}
      {(file.kind === 'image' || file.kind === 'svg') && (
        <ImageView url={file.url} name={file.name} reloadKey={tab.reloadKey} />
      )}
      {file.kind === 'pdf' && <PdfView url={file.url} reloadKey={tab.reloadKey} />}
      {file.kind === 'binary' && <BinaryView file={file} />}
    </div>
  );
}

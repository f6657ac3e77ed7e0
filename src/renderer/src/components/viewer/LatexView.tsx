/**
 * A `.tex` file in the viewer (docs/viewer.md "LaTeX"): compiled to PDF by the core (or answered from its cache)
 * and shown in the PDF view; a failed run shows its first error with file and line, the source at that line, and
 * the full log one click away. A reload of the source (live reload) compiles again and keeps the PDF's scroll.
 */
import { useEffect, useState } from 'react';
import type { LatexResult, ViewerFile } from '../../../../shared/contract/viewer';
import { skald } from '../../bridge/skald';
import { CodeView } from './CodeView';
import { PdfView } from './PdfView';

export function LatexView({ file, text, reloadKey }: { file: ViewerFile; text: string; reloadKey: number }) {
  const [result, setResult] = useState<LatexResult | null>(null);
  const [isSource, setSource] = useState(false);
  const [isLogOpen, setLogOpen] = useState(false);

  useEffect(() => {
    let live = true;
    skald.viewer.compileLatex({ handle: file.handle }).then(
      (r) => live && setResult(r),
      (e: Error) => live && setResult({ status: 'unavailable', message: e.message }),
    );
    return () => {
      live = false;
    };
  }, [file.handle, reloadKey]);

  const failed = result?.status === 'failed' ? result : null;
  return (
    <div className="viewer-latex">
      <div className="viewer-toolbar">
        <button className={!isSource ? 'active' : ''} onClick={() => setSource(false)}>
          PDF
        </button>
        <button className={isSource ? 'active' : ''} onClick={() => setSource(true)}>
          Source
        </button>
        <span className="muted small" data-testid="latex-status">
          {!result
            ? 'Compiling with LaTeX…'
            : result.status === 'ok'
              ? result.isCached
                ? 'From the cache (no input changed)'
                : `Compiled in ${(result.ms / 1000).toFixed(1)} s`
              : ''}
        </span>
      </div>
      {result && (result.status === 'unavailable' || result.status === 'timeout') && (
        <div className="viewer-message error" data-testid="latex-error">
          {result.message}
        </div>
      )}
      {failed && (
        <div className="viewer-latex-error" data-testid="latex-error">
          <strong>
            LaTeX stopped
            {failed.error.file
              ? ` at ${failed.error.file}${failed.error.line ? `:${failed.error.line}` : ''}`
              : failed.error.line
                ? ` at line ${failed.error.line}`
                : ''}
            :
          </strong>{' '}
          {failed.error.message}{' '}
          <button onClick={() => setLogOpen(!isLogOpen)}>
            {isLogOpen ? 'Hide the full log' : 'Show the full log'}
          </button>
          {isLogOpen && <pre data-testid="latex-log">{failed.log}</pre>}
        </div>
      )}
      {isSource || failed ? (
        <CodeView text={text} language="latex" line={failed?.error.line ?? null} />
      ) : (
        result?.status === 'ok' && <PdfView url={result.pdfUrl} reloadKey={0} />
      )}
    </div>
  );
}

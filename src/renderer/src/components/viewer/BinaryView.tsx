/**
 * Anything without a renderer: size, type and the first bytes as hex, and on the desktop "Open with the system
 * app" after a confirmation (docs/viewer.md "Kinds", "Open with the system app").
 */
import { useEffect, useState } from 'react';
import type { ViewerFile } from '../../../../shared/contract/viewer';
import { fetchBytes } from './file-text';
import { formatBytes, hexDump } from './format';
import { SystemOpen } from './SystemOpen';

export function BinaryView({ file }: { file: ViewerFile }) {
  const [dump, setDump] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    fetchBytes(file.url, abort.signal).then(
      (b) => setDump(hexDump(new Uint8Array(b))),
      (e: Error) => !abort.signal.aborted && setError(e.message),
    );
    return () => abort.abort();
  }, [file.url]);
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toUpperCase() : 'no extension';
  return (
    <div className="viewer-binary" data-testid="viewer-binary">
      <p>
        <strong>{file.name}</strong> · {formatBytes(file.size)} · {ext} file. Skald has no view for this kind of file;
        its first bytes:
      </p>
      <SystemOpen file={file} />
      {error && <div className="viewer-message error">{error}</div>}
      {dump !== null && <pre className="viewer-hex">{dump}</pre>}
    </div>
  );
}

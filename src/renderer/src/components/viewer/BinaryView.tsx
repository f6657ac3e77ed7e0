/**
 * Anything without a renderer: size, type and the first bytes as hex, and on the desktop "Open with the system
 * app" after a confirmation (docs/viewer.md "Kinds", "Open with the system app").
 */
import { useEffect, useRef, useState } from 'react';
import type { ViewerFile } from '../../../../shared/contract/viewer';
import { fetchBytes } from './file-text';
import { formatBytes, hexDump } from './format';
import { SystemOpen } from './SystemOpen';

/**
 * 16 bytes a line where a line of them fits the view, else 8: the dump is read whole, never cut at the right edge
 * (a tall dump's own scroll bar would sit below the fold). Measured in the dump's own font (`ch`).
 */
function useBytesPerLine(): [React.RefObject<HTMLDivElement | null>, 8 | 16] {
  const box = useRef<HTMLDivElement>(null);
  const [perLine, setPerLine] = useState<8 | 16>(16);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const probe = document.createElement('pre');
    probe.className = 'viewer-hex viewer-hex-probe';
    probe.textContent = 'x'.repeat(11 + 4 * 16);
    element.append(probe);
    const needed = probe.getBoundingClientRect().width;
    probe.remove();
    const observer = new ResizeObserver(([entry]) => setPerLine(entry!.contentRect.width >= needed ? 16 : 8));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [box, perLine];
}

export function BinaryView({ file }: { file: ViewerFile }) {
  const [bytes, setBytes] = useState<Uint8Array | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [box, perLine] = useBytesPerLine();
  useEffect(() => {
    const abort = new AbortController();
    fetchBytes(file.url, abort.signal).then(
      (b) => setBytes(new Uint8Array(b)),
      (e: Error) => !abort.signal.aborted && setError(e.message),
    );
    return () => abort.abort();
  }, [file.url]);
  const ext = file.name.includes('.') ? file.name.split('.').pop()!.toUpperCase() : 'no extension';
  const dump = bytes && hexDump(bytes, 512, perLine);
  return (
    <div className="viewer-binary" data-testid="viewer-binary" ref={box}>
      <p>
        <strong>{file.name}</strong> · {formatBytes(file.size)} · {ext} file. Skald has no view for this kind of file;
        its first bytes:
      </p>
      <SystemOpen file={file} />
      {error && <div className="viewer-message error">{error}</div>}
      {dump !== null && (
        <pre className="viewer-hex" data-testid="viewer-hex" data-per-line={perLine}>
          {dump}
        </pre>
      )}
    </div>
  );
}

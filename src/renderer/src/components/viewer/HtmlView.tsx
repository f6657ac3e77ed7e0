/**
 * HTML in the viewer (docs/viewer.md "HTML"): the page runs in an iframe with `sandbox="allow-scripts"` only —
 * never `allow-same-origin`, top navigation, popups or modals — loaded from the preview origin, which gives it
 * its own CSP (no network, no forms, images only from its folder). A link click inside arrives as one checked
 * message: relative links open in the viewer, http(s) links outside the app. Toggle to the source.
 */
import { useEffect, useRef, useState } from 'react';
import type { ViewerFile } from '../../../../shared/contract/viewer';
import { skald } from '../../bridge/skald';
import { isRelativeRef } from '../../lib/markdown';
import { CodeView } from './CodeView';
import { acceptPreviewMessage } from './preview-messages';

export const PREVIEW_SANDBOX = 'allow-scripts';

export function HtmlView({
  file,
  text,
  reloadKey,
  onOpenPath,
}: {
  file: ViewerFile;
  text: string;
  reloadKey: number;
  onOpenPath: (path: string) => void;
}) {
  const [isSource, setSource] = useState(false);
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    let live = true;
    skald.viewer.preview({ handle: file.handle }).then(
      (r) => live && setUrl(r.url),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [file.handle]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const link = acceptPreviewMessage(event, frame.current?.contentWindow);
      if (!link) return;
      if (/^https?:/i.test(link.href)) window.open(link.href, '_blank', 'noopener,noreferrer');
      else if (isRelativeRef(link.href) && !link.href.startsWith('#')) onOpenPath(link.href.split('#')[0]!);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [onOpenPath]);

  return (
    <div className="viewer-html">
      <div className="viewer-toolbar">
        <button className={!isSource ? 'active' : ''} onClick={() => setSource(false)}>
          Page
        </button>
        <button className={isSource ? 'active' : ''} onClick={() => setSource(true)}>
          Source
        </button>
        <span className="muted small">
          Sandboxed: scripts run, but cannot reach the app, the network or your files.
        </span>
      </div>
      {error && <div className="viewer-message error">{error}</div>}
      {isSource ? (
        <CodeView text={text} language="html" line={null} />
      ) : (
        url && (
          <iframe
            key={reloadKey}
            ref={frame}
            className="viewer-html-frame"
            title={file.name}
            data-testid="viewer-html-frame"
            sandbox={PREVIEW_SANDBOX}
            referrerPolicy="no-referrer"
            src={url}
          />
        )
      )}
    </div>
  );
}

/**
 * PDF in the viewer with pdf.js's own viewer component (docs/viewer.md "PDF"): pages render lazily as they
 * scroll into view, with a text layer (selection, copy) and find (highlights every hit). Zoom in/out, fit width.
 * New bytes for the same view (live reload, a LaTeX rebuild) keep the scroll position.
 */
import { useEffect, useRef, useState } from 'react';
import { fetchBytes } from './file-text';
import { openPdfDocument } from './pdf-options';

type Kit = Awaited<ReturnType<typeof import('./pdf-setup').loadPdfKit>>;
let kitLoading: Promise<Kit> | null = null;
const loadKit = () => (kitLoading ??= import('./pdf-setup').then((m) => m.loadPdfKit()));

/** pdf.js's errors about the file itself (not readable as a PDF, a password): the worker is fine. */
const DOCUMENT_ERRORS = new Set([
  'InvalidPDFException',
  'PasswordException',
  'ResponseException',
  'FormatError',
  'AbortException',
]);
const isDocumentError = (error: unknown) => error instanceof Error && DOCUMENT_ERRORS.has(error.name);

export function PdfView({ url, reloadKey }: { url: string; reloadKey: number }) {
  const container = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const state = useRef<{
    kit: Kit;
    viewer: InstanceType<Kit['viewer']['PDFViewer']>;
    eventBus: InstanceType<Kit['viewer']['EventBus']>;
  } | null>(null);
  const [pages, setPages] = useState(0);
  const [page, setPage] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<string>('');

  useEffect(() => {
    let live = true;
    const abort = new AbortController();
    let doc: { destroy(): Promise<void> } | null = null;
    (async () => {
      const [kit, bytes] = await Promise.all([loadKit(), fetchBytes(url, abort.signal)]);
      if (!live || !container.current || !inner.current) return;
      if (!state.current) {
        const eventBus = new kit.viewer.EventBus();
        const linkService = new kit.viewer.PDFLinkService({
          eventBus,
          externalLinkTarget: kit.viewer.LinkTarget.BLANK,
          externalLinkRel: 'noopener noreferrer nofollow',
        });
        const findController = new kit.viewer.PDFFindController({ eventBus, linkService });
        const viewer = new kit.viewer.PDFViewer({
          container: container.current,
          viewer: inner.current,
          eventBus,
          linkService,
          findController,
          textLayerMode: 1,
          annotationMode: kit.pdfjs.AnnotationMode.ENABLE,
        });
        linkService.setViewer(viewer);
        eventBus.on('pagechanging', (e: { pageNumber: number }) => setPage(e.pageNumber));
        eventBus.on('updatefindmatchescount', (e: { matchesCount: { current: number; total: number } }) =>
          setFound(e.matchesCount.total ? `${e.matchesCount.current} of ${e.matchesCount.total}` : 'no match'),
        );
        eventBus.on('updatefindcontrolstate', (e: { state: number; matchesCount?: { total: number } }) => {
          if (e.state === kit.viewer.FindState.NOT_FOUND) setFound('no match');
        });
        state.current = { kit, viewer, eventBus };
      }
      const { viewer, eventBus } = state.current;
      const keepTop = container.current.scrollTop;
      let loaded;
      try {
        loaded = await openPdfDocument(kit.pdfjs, new Uint8Array(bytes), kit.sharedPdfWorker()).promise;
      } catch (error) {
        // A file pdf.js cannot read says so; anything else may be the worker itself: the next open starts a new one.
        if (!isDocumentError(error)) kit.dropPdfWorker();
        throw error;
      }
      if (!live) {
        void loaded.destroy();
        return;
      }
      doc = loaded;
      eventBus.on('pagesinit', function restore() {
        viewer.currentScaleValue = 'page-width';
        if (container.current) container.current.scrollTop = keepTop;
        eventBus.off('pagesinit', restore);
      });
      viewer.setDocument(loaded);
      (viewer as unknown as { linkService: { setDocument(d: unknown): void } }).linkService.setDocument(loaded);
      setPages(loaded.numPages);
      setError(null);
    })().catch((e: Error) => live && !abort.signal.aborted && setError(`This PDF could not be shown: ${e.message}`));
    return () => {
      live = false;
      abort.abort();
      void doc?.destroy();
    };
  }, [url, reloadKey]);

  const zoom = (factor: number) => {
    const v = state.current?.viewer;
    if (v) v.currentScale = Math.min(8, Math.max(0.1, v.currentScale * factor));
  };
  const find = (again: boolean, previous = false) => {
    state.current?.eventBus.dispatch('find', {
      source: null,
      type: again ? 'again' : '',
      query,
      caseSensitive: false,
      entireWord: false,
      highlightAll: true,
      findPrevious: previous,
      matchDiacritics: false,
    });
  };

  return (
    <div className="viewer-pdf">
      <div className="viewer-toolbar">
        <span className="muted small" data-testid="pdf-pages">
          {pages ? `page ${page} of ${pages}` : 'loading…'}
        </span>
        <button onClick={() => zoom(1 / 1.2)} aria-label="Zoom out">
          −
        </button>
        <button onClick={() => zoom(1.2)} aria-label="Zoom in">
          +
        </button>
        <button onClick={() => state.current && (state.current.viewer.currentScaleValue = 'page-width')}>
          Fit width
        </button>
        <input
          className="viewer-find"
          placeholder="Find in PDF"
          aria-label="Find in PDF"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && find(true, e.shiftKey)}
        />
        <button onClick={() => find(false)} disabled={!query}>
          Find
        </button>
        <span className="muted small" data-testid="pdf-found">
          {found}
        </span>
      </div>
      {error && <div className="viewer-message error">{error}</div>}
      <div className="viewer-pdf-stage">
        <div className="viewer-pdf-container" ref={container} data-testid="viewer-pdf">
          <div className="pdfViewer" ref={inner} />
        </div>
      </div>
    </div>
  );
}

/**
 * pdf.js for the viewer, loaded lazily as its own chunk. Its worker is a bundled file of the app's origin
 * (`?url` makes Vite emit it beside the app; the CSP allows workers from 'self' only). `pdf_viewer.mjs` reads
 * the library from `globalThis.pdfjsLib`, so it is imported only after that is set.
 */
import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import 'pdfjs-dist/web/pdf_viewer.css';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
(globalThis as unknown as { pdfjsLib: typeof pdfjs }).pdfjsLib = pdfjs;

let shared: pdfjs.PDFWorker | null = null;

/**
 * The one pdf.js worker every document is opened with (docs/viewer.md "PDF"). Left to itself, pdf.js starts a
 * worker for each document and ends it with the document, so every open loaded and started the 1.2 MB worker
 * script again (about 180 ms of a 250 ms open). pdf.js never ends a worker it was handed, so this one outlives the
 * documents; `dropPdfWorker` ends it after a document failed to open for a reason other than the file itself
 * (PdfView), so one broken worker cannot fail the next open.
 */
export function sharedPdfWorker(): pdfjs.PDFWorker {
  if (!shared || shared.destroyed) shared = new pdfjs.PDFWorker();
  return shared;
}

export function dropPdfWorker(): void {
  shared?.destroy();
  shared = null;
}

export async function loadPdfKit() {
  const viewer = await import('pdfjs-dist/web/pdf_viewer.mjs');
  return { pdfjs, viewer, sharedPdfWorker, dropPdfWorker };
}

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

export async function loadPdfKit() {
  const viewer = await import('pdfjs-dist/web/pdf_viewer.mjs');
  return { pdfjs, viewer };
}

/**
 * How the viewer opens a PDF with pdf.js (docs/viewer.md "PDF"): the app's one set of document options
 * (src/shared/pdf-params.ts: eval off for CVE-2024-4367, no XFA, nothing fetched by the worker itself), the bytes from
 * the handle route handed over whole.
 */
import { pdfDocumentParams, type PdfParams } from '../../../../shared/pdf-params';

export { pdfDocumentParams, type PdfParams };

interface PdfLib<Task, Worker> {
  getDocument(params: PdfParams & { worker?: Worker }): Task;
}

/**
 * The one place a document is opened; `lib` is pdfjs-dist (the viewer's lazy chunk, or its Node build in tests).
 * `worker`: the viewer's one pdf.js worker (`sharedPdfWorker` in pdf-setup.ts); without it pdf.js starts a worker
 * for this document alone.
 */
export function openPdfDocument<Task, Worker>(lib: PdfLib<Task, Worker>, data: Uint8Array, worker?: Worker): Task {
  return lib.getDocument(worker ? { ...pdfDocumentParams(data), worker } : pdfDocumentParams(data));
}

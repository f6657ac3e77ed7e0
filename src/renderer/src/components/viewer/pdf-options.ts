/**
 * How the viewer opens a PDF with pdf.js (docs/viewer.md "PDF"). `isEvalSupported: false` is the fix for
 * CVE-2024-4367 (font code compiled with `new Function`); the installed pdfjs-dist is also far past 4.2.67,
 * which a test checks. No XFA forms, no scripting, and nothing fetched by the worker itself: the bytes come from
 * the handle route and are handed over whole.
 */
export interface PdfParams {
  data: Uint8Array;
  isEvalSupported: false;
  enableXfa: false;
  useWorkerFetch: false;
  stopAtErrors: false;
}

export function pdfDocumentParams(data: Uint8Array): PdfParams {
  return { data, isEvalSupported: false, enableXfa: false, useWorkerFetch: false, stopAtErrors: false };
}

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

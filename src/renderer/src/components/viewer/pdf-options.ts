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

interface PdfLib<Task> {
  getDocument(params: PdfParams): Task;
}

/** The one place a document is opened; `lib` is pdfjs-dist (the viewer's lazy chunk, or its Node build in tests). */
export function openPdfDocument<Task>(lib: PdfLib<Task>, data: Uint8Array): Task {
  return lib.getDocument(pdfDocumentParams(data));
}

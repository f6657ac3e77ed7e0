/**
 * How pdf.js opens a document anywhere in the app: the viewer (docs/viewer.md "PDF") and `read_file`'s text
 * extraction on a worker thread of the core (docs/tools.md "PDF files"). `isEvalSupported: false` is the fix for
 * CVE-2024-4367 (font code compiled with `new Function`); the installed pdfjs-dist is also far past 4.2.67, which a
 * test checks. No XFA forms, no scripting, and nothing fetched by pdf.js itself: the bytes are handed over whole.
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

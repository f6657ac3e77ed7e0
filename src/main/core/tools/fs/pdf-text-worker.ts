/**
 * Worker-thread entry of a PDF's text extraction (pdf-text.ts; docs/tools.md "PDF files"): pdf.js (pdfjs-dist's Node
 * build) reads the bytes given in `workerData` and posts the text of each page, or why it could not. One read a
 * thread, ended by the caller when it answers. Built as its own entry (`out/main/pdf-text-worker.js`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pdfDocumentParams } from '../../../../shared/pdf-params';
import type { PdfJob, PdfReply } from './pdf-text';

const port = parentPort;
if (!port) throw new Error('pdf-text-worker.ts runs only as a worker thread');

/**
 * pdf.js's Node build builds a DOMMatrix for its canvas drawing code when it loads, which Node lacks (pdf.js takes
 * one from @napi-rs/canvas where that is installed; the installer leaves that 32 MB native package out: only the
 * renderer draws PDFs). Reading text draws nothing, so an inert stand-in lets it load; any use of one throws.
 */
class TextOnlyDOMMatrix {
  constructor() {
    return new Proxy(this, {
      get: (_, key) =>
        key === 'then'
          ? undefined
          : () => {
              throw new Error(`DOMMatrix.${String(key)} is not available while reading text`);
            },
    });
  }
}

async function extract(job: PdfJob): Promise<PdfReply> {
  (globalThis as { DOMMatrix?: unknown }).DOMMatrix = TextOnlyDOMMatrix; // the same in development and installed
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // The app's document options (eval off: CVE-2024-4367), and for text alone no fonts loaded, no warnings printed.
  const task = pdfjs.getDocument({
    ...pdfDocumentParams(job.bytes),
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const pages: string[] = [];
    let chars = 0;
    for (let n = 1; n <= doc.numPages && chars <= job.maxChars; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) if ('str' in item) text += item.hasEOL ? `${item.str}\n` : item.str;
      page.cleanup();
      pages.push(text.replace(/\n+$/, ''));
      chars += text.length;
    }
    return { ok: true, pages, pageCount: doc.numPages };
  } catch (error) {
    const e = error as { name?: string; message?: string };
    return { ok: false, name: e.name ?? 'Error', message: e.message ?? String(error) };
  } finally {
    await task.destroy();
  }
}

void extract(workerData as PdfJob).then((reply) => port.postMessage(reply));

/** pdf.js is opened with eval off (CVE-2024-4367) and the installed pdfjs-dist is a fixed version. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import { makePdf } from '../../../../../test/fixtures/viewer/make-pdf';
import { openPdfDocument } from './pdf-options';

describe('opening a PDF', () => {
  it('calls getDocument with isEvalSupported: false, and the real pdf.js opens the document', async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const getDocument = vi.fn(pdfjs.getDocument);
    const task = openPdfDocument({ getDocument }, new Uint8Array(makePdf(3)));
    expect(getDocument).toHaveBeenCalledTimes(1);
    expect(getDocument.mock.calls[0]![0]).toMatchObject({ isEvalSupported: false, enableXfa: false });
    const doc = await task.promise;
    expect(doc.numPages).toBe(3);
    const text = await (await doc.getPage(2)).getTextContent();
    expect(text.items.map((i) => ('str' in i ? i.str : '')).join(' ')).toContain('Page 2');
    await doc.destroy();
  });

  it('a worker handed over serves one document after another and is not ended with them (the viewer keeps one)', async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const worker = new pdfjs.PDFWorker();
    for (const pages of [2, 3]) {
      const doc = await openPdfDocument(pdfjs, new Uint8Array(makePdf(pages)), worker).promise;
      expect(doc.numPages).toBe(pages);
      await doc.destroy();
      expect(worker.destroyed).toBe(false);
    }
    await expect(
      openPdfDocument(pdfjs, new Uint8Array(Buffer.from('%PDF-1.7 not a PDF')), worker).promise,
    ).rejects.toMatchObject({ name: 'InvalidPDFException' });
    const after = await openPdfDocument(pdfjs, new Uint8Array(makePdf(1)), worker).promise;
    expect(after.numPages).toBe(1);
    await after.destroy();
    worker.destroy();
  });

  it('the installed pdfjs-dist is at least 4.2.67 (the CVE-2024-4367 fix)', () => {
    const pkg = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'), 'utf8')) as {
      version: string;
    };
    const [major, minor, patch] = pkg.version.split('.').map(Number) as [number, number, number];
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(4 * 1e6 + 2 * 1e3 + 67);
  });
});

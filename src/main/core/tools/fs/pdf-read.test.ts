/**
 * `read_file` on a PDF (docs/tools.md "PDF files"): real PDFs made in the test, read by pdf.js on its own worker
 * thread. The text comes page by page as numbered lines and pages with offset/limit like a text file; a file that is
 * no PDF, one with no text, and a read that is stopped or takes too long each end with a sentence, and the thread is
 * gone.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePdf } from '../../../../../test/helpers/pdf';
import { failed, ok, runTool, makeWorkspace, type TestWorkspace } from '../_testing/workspace';
import { pdfReadersRunning, pdfText } from './pdf-text';
import { readFileTool } from './read-file';

let ws: TestWorkspace;
beforeEach(() => (ws = makeWorkspace()));
afterEach(() => ws.cleanup());

describe('read_file on a PDF', () => {
  it('gives its text page by page as numbered lines, and pages through it like a text file', async () => {
    ws.write(
      'docs/paper.pdf',
      makePdf([['A Study of Things', 'Abstract: (things) matter.'], [], ['Results', 'They do.']]),
    );
    expect(await ok(readFileTool, { path: 'docs/paper.pdf' }, ws.ctx)).toBe(
      [
        'docs/paper.pdf: PDF, 3 pages; its text follows (figures, images and layout are not in it).',
        '1\t[page 1 of 3]',
        '2\tA Study of Things',
        '3\tAbstract: (things) matter.',
        '4\t[page 2 of 3]',
        '5\t[page 3 of 3]',
        '6\tResults',
        '7\tThey do.',
      ].join('\n'),
    );
    expect(await ok(readFileTool, { path: 'docs/paper.pdf', offset: 5, limit: 2 }, ws.ctx)).toBe(
      [
        'docs/paper.pdf: PDF, 3 pages; its text follows (figures, images and layout are not in it).',
        '5\t[page 3 of 3]',
        '6\tResults',
        '[showing lines 5–6 of 7; call read_file with offset=7 to continue]',
      ].join('\n'),
    );
    expect(await failed(readFileTool, { path: 'docs/paper.pdf', offset: 9 }, ws.ctx)).toBe(
      'docs/paper.pdf has 7 lines; offset 9 is past the end.',
    );
  });

  it('says so when a PDF has no text, or is no PDF at all; a name never decides', async () => {
    ws.write('scan.pdf', makePdf([[], []]));
    expect(await ok(readFileTool, { path: 'scan.pdf' }, ws.ctx)).toBe(
      'scan.pdf: PDF, 2 pages, with no text to extract (scanned pages or drawings); open it in the viewer to see it.',
    );
    ws.write('broken.pdf', '%PDF-1.7\nthis is not the rest of a PDF\n');
    expect(await failed(readFileTool, { path: 'broken.pdf' }, ws.ctx)).toMatch(
      /^broken\.pdf could not be read as a PDF \(.+\)\.$/,
    );
    ws.write('notes.pdf', 'plain text, named .pdf\n');
    expect(await ok(readFileTool, { path: 'notes.pdf' }, ws.ctx)).toBe('1\tplain text, named .pdf');
    // Text that mentions the header near its start is still text; a binary prefix before it is still a PDF.
    ws.write('format.md', '# PDF files\nThey start with %PDF-1.7.\n');
    expect(await ok(readFileTool, { path: 'format.md' }, ws.ctx)).toBe('1\t# PDF files\n2\tThey start with %PDF-1.7.');
    ws.write('prefixed.pdf', Buffer.concat([Buffer.from([0, 1, 2, 3]), makePdf([['After a prefix']])]));
    expect(await ok(readFileTool, { path: 'prefixed.pdf' }, ws.ctx)).toContain('2\tAfter a prefix');
    ws.write('report.txt', makePdf([['Inside a .txt']]));
    expect(await ok(readFileTool, { path: 'report.txt' }, ws.ctx)).toContain('2\tInside a .txt');
  });

  it('a stopped read and one that takes too long end their thread and say why', async () => {
    const bytes = makePdf(Array.from({ length: 300 }, (_, i) => [`page ${i + 1}`]));
    await expect(pdfText('big.pdf', bytes, 1e6, new AbortController().signal, 1)).rejects.toThrow(
      'big.pdf could not be read as a PDF: reading it took longer than 0.001 s, so it was stopped.',
    );
    await expect.poll(pdfReadersRunning).toBe(0); // that thread has ended
    const stop = new AbortController();
    ws.write('big.pdf', bytes);
    const run = runTool(readFileTool, { path: 'big.pdf' }, ws.ctx, stop.signal);
    await expect.poll(pdfReadersRunning, { timeout: 15_000 }).toBe(1); // its thread runs…
    stop.abort();
    expect(await run).toMatchObject({ kind: 'cancelled' });
    await expect.poll(pdfReadersRunning).toBe(0); // …and is gone
    // The whole of it, after all: 300 pages, each a marker and a line.
    expect(await ok(readFileTool, { path: 'big.pdf', offset: 599 }, ws.ctx)).toMatch(
      /599\t\[page 300 of 300\]\n600\tpage 300$/,
    );
  });
});

/**
 * `chat:pdfText` (docs/chat-ui.md "Images in a message"): a PDF the person put in the message box, read by the same
 * pdf.js worker as read_file, through the real core's parsed boundary. What is no PDF, or too big to carry, is refused
 * there with a sentence; nothing is written.
 */
import { afterEach, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../../test/helpers/core-harness';
import { makePdf } from '../../../../test/helpers/pdf';
import { cleanupTempDirs } from '../../../../test/helpers/temp';
import { MAX_PICKED_PDF_BASE64_CHARS } from '../../../shared/chat-images';

let h: Harness;
afterEach(async () => {
  await h?.close();
  cleanupTempDirs();
});

const b64 = (bytes: Buffer) => bytes.toString('base64');

it("gives a PDF's text page by page; refuses what is no PDF or too big, at the boundary", async () => {
  h = await startHarness();
  expect(await h.call('chat:pdfText', { name: 'a.pdf', data: b64(makePdf([['One'], ['Two', 'Three']])) })).toEqual({
    pages: 2,
    text: '[page 1 of 2]\nOne\n[page 2 of 2]\nTwo\nThree',
  });
  expect(await h.call('chat:pdfText', { name: 'scan.pdf', data: b64(makePdf([[], []])) })).toEqual({
    pages: 2,
    text: '',
  });
  await expect(h.call('chat:pdfText', { name: 'evil.pdf', data: b64(Buffer.from('#!/bin/sh\n')) })).rejects.toThrow(
    '[bad_request] evil.pdf is not a PDF.',
  );
  await expect(
    h.call('chat:pdfText', { name: 'bad.pdf', data: b64(Buffer.from('%PDF-1.4\ngarbage')) }),
  ).rejects.toThrow(/^\[bad_request\] bad\.pdf could not be read as a PDF/);
  await expect(
    h.call('chat:pdfText', { name: 'big.pdf', data: 'A'.repeat(MAX_PICKED_PDF_BASE64_CHARS + 4) }),
  ).rejects.toThrow(/\[bad_request\]/);
  expect((h.core.db.prepare('SELECT count(*) AS n FROM chat_history').get() as { n: number }).n).toBe(0);
});

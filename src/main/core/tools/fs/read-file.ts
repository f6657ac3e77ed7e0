/**
 * `read_file`: a text file's lines, numbered like `cat -n`, from `offset` for `limit` lines.
 * Caps (F9): at most MAX_READ_LINES lines and MAX_READ_OUTPUT_BYTES of output per call, lines cut at 2,000
 * characters, files scanned up to MAX_SCAN_BYTES; every cut is stated with the offset to continue from. Binary
 * files (NUL in the first 8 KB), folders, FIFOs, sockets and devices are refused with a reason.
 * A PNG, JPEG, GIF or WebP image (by its bytes, never its name) comes back as an image for the model to see, up to
 * MAX_IMAGE_BYTES, with a line saying what it is (docs/chat-ui.md "Images a tool returns"); a PDF as its text, page by
 * page, read on a worker thread (pdf-text.ts; docs/tools.md "PDF files").
 * Check ids (F9) are listed in docs/security-checks.md.
 */
import { basename } from 'node:path';
import { imageSize } from 'image-size';
import { z } from 'zod';
import { MAX_IMAGE_BYTES, sniffImageType, type ChatImageType } from '../../../../shared/chat-images';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import type { ExecutionOutcome } from '../tool';
import { readCapped } from '../_policy/fs';
import { decodeText, describeEncoding } from '../_policy/text-bytes';
import { guardRead } from '../_policy/guard';
import { label, numbered, PATH_ALIASES, pathArg, pathField, plural, shortPath, splitLines } from './common';
import { hasNoText, isPdf, pdfLines, pdfText } from './pdf-text';

export const MAX_READ_LINES = 2000;
export const MAX_READ_OUTPUT_BYTES = 256 * 1024;
export const MAX_SCAN_BYTES = 16 * 1024 * 1024;

const input = z.object({
  path: pathField('File to read.'),
  offset: z.coerce.number().int().min(1).optional().describe('First line to show, 1-based (default 1).'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_READ_LINES)
    .optional()
    .describe(`How many lines to show (default and max ${MAX_READ_LINES}).`),
});

export const readFileTool = defineTool({
  name: TN.READ_FILE,
  description:
    'Read a text file from the workspace. Returns numbered lines (line number, tab, text). Long files are cut at ' +
    `${MAX_READ_LINES} lines; pass offset/limit to page through them. Use this instead of cat/head/tail in execute_cmd. ` +
    `A PNG, JPEG, GIF or WebP image (up to ${MAX_IMAGE_BYTES / 1024 / 1024} MB) is returned as an image you can see; ` +
    "a PDF's text is returned as numbered lines, page by page.",
  input,
  kind: 'read',
  category: 'filesystem',
  isIdempotent: true,
  aliases: { ...PATH_ALIASES, start_line: 'offset', line_count: 'limit' },
  describe: (a, length) => label(TN.READ_FILE, shortPath(a.path, length), length),
  targetPath: pathArg,
  async executeAsync(a, ctx, signal) {
    const g = guardRead(a.path, ctx);
    const read = readCapped(g, MAX_SCAN_BYTES);
    const imageType = sniffImageType(read.bytes);
    if (imageType) return imageResult(g.display, g.real, imageType, read.bytes, read.size);
    if (isPdf(read.bytes)) return pdfResult(g.display, read, a, signal);
    const decoded = decodeText(read.bytes);
    if (!decoded) throw new ToolError(`${g.display} is a binary file (${read.size} bytes); read_file shows text only.`);
    const { lines } = splitLines(decoded.text);
    if (lines.length === 0) return `${g.display} is empty (0 bytes).`;
    const notes: string[] = [];
    if (read.isTruncated)
      notes.push(`[file is ${read.size} bytes; only the first ${MAX_SCAN_BYTES} bytes can be read with read_file]`);
    if (decoded.encoding === 'utf16le' || decoded.encoding === 'utf16be')
      notes.push(
        `[the file is ${describeEncoding(decoded.encoding)} text: the edit tools refuse it, since they write UTF-8]`,
      );
    return pageOfLines(g.display, lines, a, read.isTruncated, notes);
  },
});

/**
 * Lines `offset…` of `lines` (at most `limit`, MAX_READ_LINES and MAX_READ_OUTPUT_BYTES of output), numbered, with
 * where to continue; `isCut`: the lines are the start of more than could be read. `notes` go after the paging note.
 */
function pageOfLines(
  display: string,
  lines: readonly string[],
  a: { offset?: number; limit?: number },
  isCut: boolean,
  notes: readonly string[],
): string {
  const start = a.offset ?? 1;
  if (start > lines.length)
    throw new ToolError(`${display} has ${lines.length} lines; offset ${start} is past the end.`);
  const wanted = Math.min(a.limit ?? MAX_READ_LINES, MAX_READ_LINES);
  let end = Math.min(lines.length, start - 1 + wanted);
  let body = numbered(lines.slice(start - 1, end), start);
  if (Buffer.byteLength(body) > MAX_READ_OUTPUT_BYTES) {
    // Keep whole lines under the byte budget: find the last line that still fits.
    let bytes = 0;
    let cut = start - 1;
    for (; cut < end; cut++) {
      bytes += Buffer.byteLength(lines[cut]!) + 8;
      if (bytes > MAX_READ_OUTPUT_BYTES) break;
    }
    end = Math.max(start, cut);
    body = numbered(lines.slice(start - 1, end), start);
  }
  const all: string[] = [];
  const total = isCut ? `at least ${lines.length}` : String(lines.length);
  if (end < lines.length || isCut)
    all.push(`[showing lines ${start}–${end} of ${total}; call read_file with offset=${end + 1} to continue]`);
  all.push(...notes);
  return all.length ? `${body}\n${all.join('\n')}` : body;
}

/**
 * A PDF's text as read_file shows a text file: numbered lines, a line `[page N of M]` before each page's text, paged
 * with offset/limit (docs/tools.md "PDF files"). Figures, images and layout are not in it, which the first line says.
 */
async function pdfResult(
  display: string,
  read: { bytes: Buffer; size: number; isTruncated: boolean },
  a: { offset?: number; limit?: number },
  signal: AbortSignal,
): Promise<string> {
  if (read.isTruncated)
    throw new ToolError(
      `${display} is a PDF of ${sizeText(read.size)}; read_file reads PDFs up to ${sizeText(MAX_SCAN_BYTES)}.`,
    );
  const pdf = await pdfText(display, read.bytes, MAX_SCAN_BYTES, signal);
  if (hasNoText(pdf)) {
    return `${display}: PDF, ${plural(pdf.pageCount, 'page')}, with no text to extract (scanned pages or drawings); open it in the viewer to see it.`;
  }
  const head = `${display}: PDF, ${plural(pdf.pageCount, 'page')}; its text follows (figures, images and layout are not in it).`;
  const lines = pdfLines(pdf);
  const isCut = pdf.pages.length < pdf.pageCount;
  const notes = isCut
    ? [`[the text of pages ${pdf.pages.length + 1}–${pdf.pageCount} is past what read_file reads of a file]`]
    : [];
  return `${head}\n${pageOfLines(display, lines, a, isCut, notes)}`;
}

const IMAGE_KIND: Record<ChatImageType, string> = {
  'image/png': 'PNG',
  'image/jpeg': 'JPEG',
  'image/gif': 'GIF',
  'image/webp': 'WebP',
};

function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** An image file as the model sees it: a line saying what it is, and the image itself (its bytes as read). */
function imageResult(
  display: string,
  real: string,
  mediaType: ChatImageType,
  bytes: Buffer,
  size: number,
): ExecutionOutcome {
  const kind = IMAGE_KIND[mediaType];
  if (size > MAX_IMAGE_BYTES) {
    throw new ToolError(
      `${display} is a ${kind} image of ${sizeText(size)}; read_file shows images up to ${sizeText(MAX_IMAGE_BYTES)} (what the model providers take).`,
    );
  }
  let pixels = '';
  try {
    const { width, height } = imageSize(bytes);
    if (width && height) pixels = `, ${width}×${height} pixels`;
  } catch {
    // A damaged header: the provider judges the image itself; the line just lacks its size.
  }
  return {
    kind: 'completed',
    result: `${display}: ${kind} image${pixels}, ${sizeText(size)}. The image is attached for you to see.`,
    images: [{ name: basename(real), mediaType, bytes }],
  };
}

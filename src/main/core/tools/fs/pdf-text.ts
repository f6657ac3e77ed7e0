/**
 * The text of a PDF, for `read_file` (docs/tools.md "PDF files"). pdf.js runs on a worker thread of its own, one per
 * read (pdf-text-worker.ts): a 500-page file takes seconds of parsing, which would stop every other call of the core,
 * and a hostile one gets a bounded thread, not the app: a heap of PDF_HEAP_MB, PDF_TIMEOUT_MS of time, and the
 * call's stop, each of which ends the thread. The last few texts (4, and 4 M characters in all) are kept by the
 * file's content hash, so paging through a long PDF with `offset` parses it once.
 */
import { hash } from 'node:crypto';
import { textEncodingOf } from '../../../../shared/text-encoding';
import { ToolError } from '../define-tool';
import { spawnWorker } from '../../workers/spawn-worker';

export const PDF_TIMEOUT_MS = 30_000;
export const PDF_HEAP_MB = 512;
/** Texts kept for paging (by content hash): at most this many, and this many characters in all (memory). */
const KEPT_TEXTS = 4;
const KEPT_CHARS = 4 * 1024 * 1024;

export interface PdfJob {
  bytes: Uint8Array;
  /** Pages are read until their text passes this many characters (what read_file can show of a file). */
  maxChars: number;
}

export type PdfReply = { ok: true; pages: string[]; pageCount: number } | { ok: false; name: string; message: string };

export interface PdfText {
  /** The text of the pages read, in order (from the first; fewer than `pageCount` past `maxChars`). */
  pages: string[];
  pageCount: number;
}

const kept = new Map<string, PdfText>();

/**
 * A PDF by its header, never by its name: `%PDF-` first, or (the format lets it start anywhere in the first 1,024
 * bytes) after a binary prefix. A text file that mentions `%PDF-` near its start (a note on the format, this app's
 * own tests) stays text.
 */
export function isPdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  const at = head.indexOf('%PDF-');
  return at === 0 || (at > 0 && textEncodingOf(bytes) === null);
}

/** The text as lines, a line `[page N of M]` before each page's: how read_file and the message box show a PDF. */
export function pdfLines(pdf: PdfText): string[] {
  const lines: string[] = [];
  pdf.pages.forEach((text, i) =>
    lines.push(`[page ${i + 1} of ${pdf.pageCount}]`, ...(text ? text.split(/\r?\n/) : [])),
  );
  return lines;
}

/** Whether no page has any text (scanned pages, drawings). */
export const hasNoText = (pdf: PdfText) => pdf.pages.every((text) => text.trim() === '');

let runningReaders = 0;
/** How many PDF reader threads are alive now (started and not yet exited): what the tests watch, since a count of
 * the process's threads also moves with threads that are none of ours. */
export const pdfReadersRunning = () => runningReaders;

function extractOnWorker(job: PdfJob, signal: AbortSignal, timeoutMs: number): Promise<PdfReply> {
  return new Promise((resolve, reject) => {
    // The bytes are copied into the job (the caller keeps its buffer); the thread ends with its answer.
    const worker = spawnWorker('pdf-text-worker.js', new URL('./pdf-text-worker.ts', import.meta.url), {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: PDF_HEAP_MB },
      stdout: true, // pdf.js may print; nothing of it reaches the app's output
      stderr: true,
    });
    runningReaders += 1;
    worker.once('exit', () => (runningReaders -= 1));
    let settled = false;
    const end = (finish: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      finish();
    };
    const onAbort = () => end(() => reject(signal.reason));
    const timer = setTimeout(
      () => end(() => reject(new ToolError(`reading it took longer than ${timeoutMs / 1000} s, so it was stopped`))),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: PdfReply) => end(() => resolve(reply)));
    worker.once('error', (error) =>
      end(() =>
        reject(
          new ToolError(
            /memory|heap/i.test(error.message)
              ? `reading it needed more than ${PDF_HEAP_MB} MB of memory, so it was stopped`
              : error.message,
          ),
        ),
      ),
    );
    worker.once('exit', (code) => end(() => reject(new ToolError(`the reader stopped (exit code ${code})`))));
  });
}

/** The text of the PDF `bytes`; a ToolError says in a sentence why there is none (`display` names the file). */
export async function pdfText(
  display: string,
  bytes: Uint8Array,
  maxChars: number,
  signal: AbortSignal,
  timeoutMs = PDF_TIMEOUT_MS,
): Promise<PdfText> {
  const key = `${hash('sha1', bytes)}:${maxChars}`;
  const known = kept.get(key);
  if (known) return known;
  let reply: PdfReply;
  try {
    reply = await extractOnWorker({ bytes, maxChars }, signal, timeoutMs);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ToolError(`${display} could not be read as a PDF: ${(error as Error).message}.`);
  }
  if (!reply.ok) {
    if (reply.name === 'PasswordException')
      throw new ToolError(`${display} is a password-protected PDF; read_file cannot open it.`);
    throw new ToolError(`${display} could not be read as a PDF (${reply.message}).`);
  }
  const text: PdfText = { pages: reply.pages, pageCount: reply.pageCount };
  kept.set(key, text);
  const chars = (t: PdfText) => t.pages.reduce((sum, page) => sum + page.length, 0);
  let total = [...kept.values()].reduce((sum, t) => sum + chars(t), 0);
  for (const [oldest, t] of kept) {
    if (kept.size <= KEPT_TEXTS && total <= KEPT_CHARS) break;
    kept.delete(oldest); // the newest too, when it alone is past the budget: it is answered, not kept
    total -= chars(t);
  }
  return text;
}

/**
 * Worker-thread entry of the JS search engine's pool (grep-pool.ts): for a list of files, which ones hold a matching
 * line. Reading and matching a big tree is most of the JS engine's time; two of these split it over the cores, while
 * the calling thread walks and keeps the walk's order. Built as its own entry (`out/main/grep-worker.js`).
 * Files are read through the policy facade (no symlink followed, size cap), with ripgrep's binary rule (grep-binary.ts).
 */
import { parentPort } from 'node:worker_threads';
import { SearchReader } from '../../disk/search-reader';
import { ToolError } from '../define-tool';
import { ripgrepExtent } from './grep-binary';
import type { GrepJob, GrepReply } from './grep-pool';
import { byteLines, compileMatcher, matchingLines, mayMatch, type Matcher } from './search-engine';

const port = parentPort;
if (!port) throw new Error('grep-worker.ts runs only as a worker thread');

const reader = new SearchReader();
let cached: { key: string; matcher: Matcher } | null = null;

port.on('message', (job: GrepJob) => {
  try {
    const key = `${job.caseInsensitive ? 'i' : ''}:${job.pattern}`;
    if (cached?.key !== key) cached = { key, matcher: compileMatcher(job.pattern, job.caseInsensitive) };
    const { matcher } = cached;
    const hits = new Uint8Array(job.paths.length);
    job.paths.forEach((path, i) => {
      // Null for a binary file, after its head; a file that turns binary later is cut where ripgrep stops reading it.
      const bytes = reader.read(path, job.maxBytes, true, ripgrepExtent(job.context));
      if (!bytes || !mayMatch(matcher, bytes)) return;
      if (matcher.literal) hits[i] = 1;
      else {
        const found = byteLines(matcher, bytes, 1, 0); // on the bytes where the pattern allows it (grep-pattern.ts)
        if ((found ? found.matches.length : matchingLines(matcher, bytes.toString('utf8'), 1).length) > 0) hits[i] = 1;
      }
    });
    // Only which files match goes back; the calling thread reads those again and confirms them on their descriptors.
    reader.release();
    port.postMessage({ id: job.id, ok: true, hits } satisfies GrepReply, [hits.buffer]);
  } catch (error) {
    port.postMessage({
      id: job.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      refused: error instanceof ToolError,
    } satisfies GrepReply);
  }
});

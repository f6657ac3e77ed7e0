/**
 * Worker-thread entry of the JS search engine's pool (grep-pool.ts): for a list of files, which ones hold a matching
 * line, and those lines. Reading and matching a big tree is most of the JS engine's time; two of these split it over
 * the cores, while the calling thread walks and keeps the walk's order. Built as its own entry
 * (`out/main/grep-worker.js`). Each file is searched as the calling thread searches it (grep-file-hits.ts): read
 * through the disk policy (no symlink followed, size cap, ripgrep's binary rule), and a hit confirmed on the
 * descriptor it was read on before it goes back; a file with other names goes back with that descriptor's identity,
 * which the calling thread judges against the guarded files.
 */
import { parentPort } from 'node:worker_threads';
import { SearchReader } from '../../disk/search-reader';
import { ToolError } from '../define-tool';
import { matchIn, type FileHit } from './grep-file-hits';
import { FOUND, SEARCH_HERE, type GrepJob, type GrepReply } from './grep-pool';
import { compileMatcher, type Matcher } from './search-engine';

const port = parentPort;
if (!port) throw new Error('grep-worker.ts runs only as a worker thread');

let cached: { key: string; matcher: Matcher } | null = null;
/** One reader per guard (its scratch buffer is reused from job to job; a search sends the same guard each time). */
let readerFor: { key: string; reader: SearchReader } | null = null;

port.on('message', (job: GrepJob) => {
  try {
    const key = `${job.caseInsensitive ? 'i' : ''}:${job.pattern}`;
    if (cached?.key !== key) cached = { key, matcher: compileMatcher(job.pattern, job.caseInsensitive) };
    const { matcher } = cached;
    const guardKey = JSON.stringify(job.guard);
    if (readerFor?.key !== guardKey) readerFor = { key: guardKey, reader: new SearchReader(job.guard) };
    const { reader } = readerFor;
    const hits = new Uint8Array(job.paths.length);
    const asked = { matcher, mode: job.mode, context: job.context, maxBytes: job.maxBytes };
    const found: FileHit[] = [];
    for (let i = 0; i < job.paths.length; i++) {
      if (job.cancel && Atomics.load(job.cancel, 0) !== 0) break; // the search has ended: the rest is of no use
      const path = job.paths[i]!;
      const hit = matchIn(reader, path, asked);
      if (!hit) {
        reader.release();
        continue;
      }
      // Context lines found on the decoded text need that text, which stays here: the calling thread searches the file.
      if (hit.text !== undefined && job.context > 0) {
        reader.release();
        hits[i] = SEARCH_HERE;
        continue;
      }
      // A file with other names is judged against the guarded files by the calling thread, which knows them already (it
      // judges every hit so), by the identity of the descriptor read here: judging here would cost each worker its own
      // walk of the workspace (disk/hardlinks.ts).
      const there = reader.confirmLeavingLinks();
      if (there === false) continue;
      hits[i] = FOUND;
      found.push({
        matches: hit.matches,
        matchTexts: hit.matchTexts,
        ...(hit.lineTexts ? { lineTexts: hit.lineTexts } : {}),
        ...(there === true ? {} : { link: there }),
      });
    }
    port.postMessage({ id: job.id, ok: true, hits, found } satisfies GrepReply, [hits.buffer]);
  } catch (error) {
    port.postMessage({
      id: job.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      refused: error instanceof ToolError,
    } satisfies GrepReply);
  }
});

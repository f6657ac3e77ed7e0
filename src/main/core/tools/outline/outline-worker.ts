/**
 * Worker-thread entry of the outline pool: parses and outlines one source text per message, so big files neither
 * block the main process nor wait for one core. Built as its own entry (`out/main/outline-worker.js`).
 */
import { parentPort } from 'node:worker_threads';
import type { OutlineJob, OutlineReply } from './outline-pool';
import { encodeOutline } from './outline-wire';
import { parseOnThisThread } from './parse-here';
import { encodePieces } from './pieces';

const port = parentPort;
if (!port) throw new Error('outline-worker.ts runs only as a worker thread');

port.on('message', (job: OutlineJob) => {
  parseOnThisThread(job.parser, job.text, job.depth).then(
    (parsed) =>
      port.postMessage({
        id: job.id,
        ok: true,
        // With pieces, the items travel inside them (once).
        flat: parsed.pieces ? null : encodeOutline(parsed.items),
        pieces: parsed.pieces ? encodePieces(parsed.pieces) : null,
        problems: parsed.problems,
      } satisfies OutlineReply),
    (error: unknown) =>
      port.postMessage({
        id: job.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      } satisfies OutlineReply),
  );
});

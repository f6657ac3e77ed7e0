/**
 * Searching what was said in the chats (`chat:search`; docs/ui.md "Searching chats"). The scan runs on one worker
 * thread with its own read-only connection (chat-search-worker.ts), so the core's thread answers every other call
 * while it reads: a `LIKE '%word%'` has no index to use and walks every message, and there is deliberately no index
 * or trigger for it (writes would pay for them on every message and tool row).
 *
 * The worker starts on the first search and stays until the core closes (`close`, before the core's own connection
 * closes, so that one is the database's last). The newest search wins: each search writes its id into a shared
 * cell, and a scan that sees another id there stops at its next chunk and answers null.
 */
import type { Worker } from 'node:worker_threads';
import { BridgeError } from '../../../shared/contract/define';
import type { ChatSearchHit } from '../../../shared/contract/chat';
import { spawnWorker } from '../workers/spawn-worker';

export interface ChatSearchJob {
  id: number;
  query: string;
  file: string;
  nativeBinding?: string;
  /** One Int32 cell holding the id of the newest search. */
  latest: SharedArrayBuffer;
}

/** `hits` null: a newer search replaced this one. */
export type ChatSearchReply =
  | { id: number; ok: true; hits: ChatSearchHit[] | null }
  | { id: number; ok: false; message: string };

/** The worker entry is built as `out/main/chat-search-worker.js` (electron.vite.config.ts). */
export function spawnChatSearchWorker(): Worker {
  return spawnWorker('chat-search-worker.js', new URL('./chat-search-worker.ts', import.meta.url));
}

/** How long `close` lets the worker close its connection before ending the thread anyway. */
const CLOSE_WAIT_MS = 2_000;

interface Waiting {
  resolve: (hits: ChatSearchHit[] | null) => void;
  reject: (error: Error) => void;
}

export class ChatSearch {
  private worker: Worker | null = null;
  private readonly latest = new Int32Array(new SharedArrayBuffer(4));
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private isClosed = false;

  constructor(
    private readonly file: string,
    private readonly nativeBinding?: string,
    private readonly spawn: () => Worker = spawnChatSearchWorker,
  ) {}

  /** Whether the worker thread is alive (it starts on the first search). */
  get isStarted(): boolean {
    return this.worker !== null;
  }

  /** Up to 50 hits, newest first; null when a newer search replaced this one before it ended. */
  search(query: string): Promise<ChatSearchHit[] | null> {
    if (this.isClosed) return Promise.reject(new BridgeError('unavailable', 'The app is closing.'));
    const worker = this.start();
    const id = this.nextId++;
    Atomics.store(this.latest, 0, id); // an older scan still running sees it before its next chunk
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref(); // a search in flight keeps a CLI or test process alive until it is answered
      worker.postMessage({
        id,
        query,
        file: this.file,
        nativeBinding: this.nativeBinding,
        latest: this.latest.buffer as SharedArrayBuffer,
      } satisfies ChatSearchJob);
    });
  }

  async close(): Promise<void> {
    this.isClosed = true;
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    Atomics.store(this.latest, 0, 0); // a scan under way stops at its next chunk
    for (const waiting of this.waiting.values()) waiting.resolve(null);
    this.waiting.clear();
    const exited = new Promise<boolean>((resolve) => worker.once('exit', () => resolve(true)));
    worker.postMessage({ close: true });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_WAIT_MS)));
    const hasExited = await Promise.race([exited, late]);
    clearTimeout(timer);
    if (!hasExited) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    worker.unref(); // an idle worker must not keep a CLI or test process alive
    const gone = (error?: unknown) => {
      if (this.worker !== worker) return; // closed on purpose
      this.worker = null; // the next search starts a new one
      for (const waiting of this.waiting.values())
        waiting.reject(new Error(`the chat search worker stopped: ${String(error ?? 'exited')}`));
      this.waiting.clear();
    };
    worker.on('message', (reply: ChatSearchReply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if (!waiting) return;
      if (reply.ok) waiting.resolve(reply.hits);
      else waiting.reject(new Error(`the chat search failed: ${reply.message}`));
    });
    worker.on('error', gone);
    worker.on('exit', () => gone());
    this.worker = worker;
    return worker;
  }
}

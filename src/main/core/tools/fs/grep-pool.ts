/**
 * Worker threads for the JS search engine (the one that runs where ripgrep is absent). On a big tree with few hits,
 * reading and matching every file is the cost, and one thread does it at half the speed of ripgrep's two. The pool
 * answers "which of these files hold a match, on which lines" on up to two workers at once; the engine walks, sends
 * the files in the walk's order, and takes each hit as the worker found and confirmed it (grep-file-hits.ts: the
 * same search and the same checks on the same read as on the calling thread), so its answer and order are exactly
 * those of the one-thread engine. Workers start on first use and end after IDLE_MS without work. When a worker cannot start or
 * dies, `filter` resolves to null and the engine goes on alone on its own thread: slower, never missing.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { GuardScope } from '../../disk/protected';
import { spawnWorker } from '../../workers/spawn-worker';
import { ToolError } from '../define-tool';
import type { FileHit, GrepMode } from './grep-file-hits';

export interface GrepJob {
  id: number;
  paths: string[];
  pattern: string;
  caseInsensitive: boolean;
  maxBytes: number;
  /** Context lines asked for: ripgrep's binary rule reads a file's fills by them (grep-binary.ts). */
  context: number;
  /** What the answer needs of a file (grep-engines.ts `GrepQuery.mode`). */
  mode: GrepMode;
  /** Whose guarded files a hard link must not reach: a hit is confirmed against them (disk/search-reader.ts). */
  guard: GuardScope | null;
  /**
   * Shared with the search that sent the job: non-zero once it has ended, and the worker stops at the next file (its
   * answer then covers only the files before; nothing reads it).
   */
  cancel?: Int32Array;
}

/**
 * For each path of a job: 0 no hit, 1 a hit the calling thread must search again (its lines were found on the decoded
 * text and context is asked for: the text stays there), 2 a hit in `found` (in the paths' order).
 */
export interface PoolAnswer {
  hits: Uint8Array;
  found: FileHit[];
}

export const NO_HIT = 0;
export const SEARCH_HERE = 1;
export const FOUND = 2;

/** `refused`: the job failed for the pattern's own sake (a ToolError: the same on any thread), not the worker's. */
export type GrepReply =
  | { id: number; ok: true; hits: Uint8Array; found: FileHit[] }
  | { id: number; ok: false; message: string; refused?: boolean };

const IDLE_MS = 30_000;
const MAX_WORKERS = 2;

/** The worker entry is built as `out/main/grep-worker.js` (electron.vite.config.ts). */
export function spawnGrepWorker(): Worker {
  return spawnWorker('grep-worker.js', new URL('./grep-worker.ts', import.meta.url));
}

interface Slot {
  worker: Worker;
  pending: Map<number, (answer: PoolAnswer | null | ToolError) => void>;
  isClosing: boolean;
}

export class GrepPool {
  readonly size: number;
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private turn = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private unavailable = false;
  /** Every worker has answered a job since it started (warm()'s empty job or a real one). */
  private answered = new Set<Slot>();
  private warming = false;

  constructor(
    private readonly spawn: () => Worker = spawnGrepWorker,
    size = Math.min(MAX_WORKERS, availableParallelism()),
  ) {
    this.size = Math.max(1, size);
  }

  /** Workers alive now (they start on demand and end when idle). */
  get liveWorkers(): number {
    return this.slots.length;
  }

  /** False once a worker failed: the engine then searches on its own thread. */
  get usesWorkers(): boolean {
    return !this.unavailable;
  }

  /** Whether all the workers are started and have answered: a job given now is not held up by their start. */
  get isReady(): boolean {
    return !this.unavailable && this.slots.length === this.size && this.slots.every((s) => this.answered.has(s));
  }

  /**
   * Starts the workers (an empty job each) so that a search still going a little later can hand them its reading at
   * once: a worker's start costs about 50 ms before its first answer (its bundle loaded and compiled), which a search
   * that waited for it would add to its own time.
   */
  warm(): void {
    if (this.unavailable || this.warming || this.isReady) return;
    this.warming = true;
    // No files to search; any valid pattern will do (an empty one is refused by the matcher).
    const jobs = Array.from({ length: this.size }, () =>
      this.filter({
        paths: [],
        pattern: 'x',
        caseInsensitive: false,
        maxBytes: 0,
        context: 0,
        mode: 'files',
        guard: null,
      }),
    );
    void Promise.allSettled(jobs).finally(() => (this.warming = false));
  }

  /**
   * For each path, whether the file holds a matching line, and its lines (`PoolAnswer`); null when no worker could do
   * it. Rejects with the worker's
   * ToolError when the pattern itself failed (a backtracking pattern stopped at its time limit): this thread would
   * only fail the same way, after as long again.
   */
  filter(job: Omit<GrepJob, 'id'>): Promise<PoolAnswer | null> {
    const slot = this.slot();
    if (!slot) return Promise.resolve(null);
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.worker.ref(); // a job in flight keeps the process alive until it is answered
      slot.pending.set(id, (answer) => {
        if (answer) this.answered.add(slot);
        if (slot.pending.size === 0) slot.worker.unref();
        if (answer instanceof ToolError) reject(answer);
        else resolve(answer);
        if (this.slots.every((s) => s.pending.size === 0))
          this.idleTimer = setTimeout(() => void this.close(), IDLE_MS).unref();
      });
      slot.worker.postMessage({ ...job, id } satisfies GrepJob);
    });
  }

  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const slots = this.slots.splice(0);
    this.answered.clear();
    for (const s of slots) s.isClosing = true;
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private slot(): Slot | null {
    if (this.unavailable) return null;
    if (this.slots.length < this.size) {
      try {
        const worker = this.spawn();
        worker.unref(); // an idle worker must not keep a CLI or test process alive
        const slot: Slot = { worker, pending: new Map(), isClosing: false };
        const gone = () => {
          if (slot.isClosing) return;
          this.unavailable = true;
          this.slots.splice(this.slots.indexOf(slot) >>> 0, 1);
          for (const done of slot.pending.values()) done(null);
          slot.pending.clear();
        };
        worker.on('message', (reply: GrepReply) => {
          const done = slot.pending.get(reply.id);
          slot.pending.delete(reply.id);
          done?.(
            reply.ok ? { hits: reply.hits, found: reply.found } : reply.refused ? new ToolError(reply.message) : null,
          );
        });
        worker.on('error', gone);
        worker.on('exit', gone);
        this.slots.push(slot);
      } catch {
        this.unavailable = true;
        return null;
      }
    }
    return this.slots[this.turn++ % this.slots.length] ?? null;
  }
}

/** The pool the grep tool shares. */
export const grepPool = new GrepPool();

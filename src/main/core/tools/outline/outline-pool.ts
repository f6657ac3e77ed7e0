/**
 * Outlines are parsed in worker threads, for two reasons:
 * - a big file's parse (tens of ms, over a second for the 8 MB cap) must not block the process that also serves
 *   the window and the approval gate;
 * - a big file is cut at top-level boundaries (`split.ts`) and its parts are parsed at the same time, one per core,
 *   which is what brings a 10,000-line file under 50 ms (docs/performance.md "Performance targets") on a 2-core
 * machine. Workers start on first use and end after IDLE_MS without work, so an idle app holds no parser memory. When
 * no worker can start (or one dies) the outline is computed on this thread instead: slower, never missing.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { GrammarId } from '../../treesitter/grammars';
import { spawnWorker } from '../../workers/spawn-worker';
import type { OutlineItem } from './extract';
import { decodeOutline, type FlatOutline } from './outline-wire';
import {
  decodePieces,
  shiftItems,
  shiftPieces,
  type FlatPieces,
  type ParsedText,
  type ParseProblem,
  type Piece,
} from './pieces';
import { canSplit, splitSource, type SourcePart } from './split';

import type { ParseEngine } from './parse-here';

export type { ParseEngine };

export interface OutlineJob {
  id: number;
  parser: ParseEngine;
  text: string;
  /** Depth of the text's top-level statements (a reparsed class body: its members' depth minus one). */
  depth: number;
}

export type OutlineReply =
  | { id: number; ok: true; flat: FlatOutline | null; pieces: FlatPieces | null; problems: ParseProblem[] }
  | { id: number; ok: false; message: string };

/** A part's outline as it comes back: still flat until the parts are known to join (most of the time). */
interface PartOutline {
  flat: FlatOutline | null;
  pieces: FlatPieces | null;
  /** Set instead of `flat`/`pieces` when this thread did the work. */
  parsed: ParsedText | null;
  problems: ParseProblem[];
}

/** Below this a file is parsed in one piece: the cut would save less than it costs. */
export const SPLIT_MIN_CHARS = 64 * 1024;
const IDLE_MS = 30_000;
const MAX_WORKERS = 4;

interface Pending {
  resolve: (outline: PartOutline) => void;
  reject: (error: Error) => void;
}

class PoolWorker {
  readonly pending = new Map<number, Pending>();
  private readonly worker: Worker;
  private hasReplied = false;

  constructor(spawn: () => Worker, onGone: (w: PoolWorker, hadReplied: boolean) => void) {
    this.worker = spawn();
    this.worker.unref(); // an outline in flight must not keep a CLI or test process alive
    this.worker.on('message', (reply: OutlineReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.hasReplied = true;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve({ flat: reply.flat, pieces: reply.pieces, parsed: null, problems: reply.problems });
      else p.reject(new Error(reply.message));
    });
    const fail = (error: Error) => {
      onGone(this, this.hasReplied);
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`outline worker exited (code ${code})`)));
  }

  run(job: OutlineJob): Promise<PartOutline> {
    return new Promise((resolve, reject) => {
      this.pending.set(job.id, { resolve, reject });
      this.worker.postMessage(job);
    });
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/** The worker entry is built as `out/main/outline-worker.js` (electron.vite.config.ts). */
export function spawnOutlineWorker(): Worker {
  return spawnWorker('outline-worker.js', new URL('./outline-worker.ts', import.meta.url));
}

export interface OutlinePoolOptions {
  /** Workers, and so the parts a big file is cut into. Default: the cores, at most MAX_WORKERS. */
  size?: number;
  idleMs?: number;
  /** Tests replace the worker (one that dies, say). */
  spawn?: () => Worker;
}

export class OutlinePool {
  readonly size: number;
  private readonly idleMs: number;
  private readonly spawn: () => Worker;
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private inFlight = 0;
  /** Set when a worker could not start: from then on everything runs on this thread. */
  private unavailable = false;

  constructor(options: OutlinePoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(availableParallelism(), MAX_WORKERS));
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.spawn = options.spawn ?? spawnOutlineWorker;
  }

  /** Workers alive now (they start on demand and end when idle). */
  get liveWorkers(): number {
    return this.workers.length;
  }

  /**
   * Starts a worker now when none is alive, so the next parse finds one ready; unused, it ends after the idle time
   * like any other. For a caller that parsed on its own thread because no worker was alive (`outline-service.ts`).
   */
  warmUp(): void {
    if (this.workers.length > 0 || this.unavailable) return;
    if (this.workerAt(0) && this.inFlight === 0) this.armIdleTimer();
  }

  /** False once a worker failed to start: outlines then run on the calling thread. */
  get usesWorkers(): boolean {
    return !this.unavailable;
  }

  /** The tree-sitter outline of a whole file (items only). */
  async outline(grammar: GrammarId, text: string): Promise<OutlineItem[]> {
    return (await this.parse({ engine: 'tree-sitter', grammar }, text)).items;
  }

  /**
   * The outline of a text, with its pieces and problems. A big whole file (depth 0) in a language with cut points
   * is cut into parts for the workers (for oxc too: most of its time is handing the AST to JavaScript, which the
   * parts share).
   */
  async parse(parser: ParseEngine, text: string, depth = 0): Promise<ParsedText> {
    // oxc's files cut where tree-sitter's TypeScript and JavaScript would: the cut points are the same text.
    const grammar: GrammarId =
      parser.engine === 'tree-sitter'
        ? parser.grammar
        : parser.engine === 'python'
          ? 'python'
          : parser.lang === 'js' || parser.lang === 'jsx'
            ? 'javascript'
            : 'typescript';
    const parts =
      depth === 0 && text.length >= SPLIT_MIN_CHARS && canSplit(grammar)
        ? splitSource(text, grammar, this.size)
        : [{ text, lineOffset: 0 }];
    if (parts.length > 1) {
      const outlines = await Promise.all(
        parts.map((part, i) => this.runOn(i, parser, (part.head ?? '') + part.text, depth)),
      );
      // Any error in a part may come from a cut through a string, comment or block, and it need not sit near the
      // cut (tree-sitter recovers from an unclosed template right at its backtick), so the whole-file parse decides.
      // The price: a big file with syntax errors of its own is parsed in parts and then whole.
      if (!outlines.some((o) => o.problems.length > 0)) {
        const joined = joinParts(text, parts, outlines);
        if (joined) return joined;
      }
    }
    return parsedOf(await this.runOn(0, parser, text, depth), 0, 0);
  }

  /** Ends every worker now (they also end on their own when idle). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private async runOn(slot: number, parser: ParseEngine, text: string, depth: number): Promise<PartOutline> {
    const worker = this.workerAt(slot);
    if (!worker) return onThisThread(parser, text, depth);
    this.inFlight++;
    clearTimeout(this.idleTimer);
    try {
      return await worker.run({ id: this.nextId++, parser, text, depth });
    } catch (error) {
      // A worker that died (not a parse failure reported by a live one) is replaced by this thread for this job.
      if (this.workers.includes(worker)) throw error;
      return onThisThread(parser, text, depth);
    } finally {
      // Idle time counts from the last job's end, so no parse is ever cut off by the idle timer.
      if (--this.inFlight === 0) this.armIdleTimer();
    }
  }

  private workerAt(slot: number): PoolWorker | null {
    if (this.unavailable) return null;
    while (this.workers.length <= slot % this.size) {
      try {
        this.workers.push(new PoolWorker(this.spawn, (gone, hadReplied) => this.forget(gone, hadReplied)));
      } catch {
        this.unavailable = true;
        return null;
      }
    }
    return this.workers[slot % this.size]!;
  }

  private forget(worker: PoolWorker, hadReplied: boolean): void {
    const i = this.workers.indexOf(worker);
    if (i === -1) return; // ended by close()
    this.workers.splice(i, 1);
    // A worker that dies before its first reply cannot load here (no built entry, no loader): stop trying.
    if (!hadReplied) this.unavailable = true;
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
    this.idleTimer.unref();
  }
}

async function onThisThread(parser: ParseEngine, text: string, depth: number): Promise<PartOutline> {
  // Loaded here only: the parsers are the workers' business, and this thread is the fallback.
  const { parseOnThisThread } = await import('./parse-here');
  const parsed = await parseOnThisThread(parser, text, depth);
  return { flat: null, pieces: null, parsed, problems: parsed.problems };
}

/** A part's result as the whole file's: offsets moved by `chars`, lines by `lines`. */
function parsedOf(part: PartOutline, chars: number, lines: number): ParsedText {
  if (part.parsed) {
    const { items, pieces, problems } = part.parsed;
    if (chars === 0 && lines === 0) return part.parsed;
    // This thread's own fresh result: moved in place.
    if (pieces) {
      shiftPieces(pieces, chars, lines);
      return { items: pieces.flatMap((p) => p.items), pieces, problems };
    }
    shiftItems(items, lines);
    return { items, pieces: null, problems };
  }
  if (part.pieces) {
    const pieces: Piece[] = decodePieces(part.pieces, chars, lines);
    return { items: pieces.flatMap((p) => p.items), pieces, problems: part.problems };
  }
  return { items: part.flat ? decodeOutline(part.flat, lines) : [], pieces: null, problems: part.problems };
}

/**
 * The parts' outlines as the whole text's; null when a part cut inside a Python class (`SourcePart.head`) does not
 * continue the class the part before it ends in: the previous part's last statement must be a class whose members
 * sit at the column of the wrapper's members.
 */
function joinParts(text: string, parts: readonly SourcePart[], outlines: readonly PartOutline[]): ParsedText | null {
  let chars = 0;
  const joined: ParsedText = { items: [], pieces: [], problems: [] };
  let hasContinued = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const head = part.head ?? '';
    const one = parsedOf(outlines[i]!, chars - head.length, part.lineOffset - (head ? 1 : 0));
    chars += part.text.length;
    if (head) {
      if (!joined.pieces || !one.pieces || !continueClass(text, joined.pieces, one.pieces)) return null;
      hasContinued = true;
      joined.pieces.push(...one.pieces.slice(1));
      continue;
    }
    joined.items.push(...one.items);
    if (one.pieces && joined.pieces) joined.pieces.push(...one.pieces);
    else joined.pieces = null;
  }
  if (hasContinued) joined.items = joined.pieces!.flatMap((p) => p.items);
  return joined;
}

/** Joins the wrapper class `_` (first of `next`) into the class that ends `pieces`; false when they do not match. */
function continueClass(text: string, pieces: Piece[], next: readonly Piece[]): boolean {
  const last = pieces[pieces.length - 1];
  const wrapper = next[0];
  const item = last?.items.length === 1 ? last.items[0]! : null;
  const wrapperItem = wrapper?.items.length === 1 ? wrapper.items[0]! : null;
  if (!last?.body || !item || item.kind !== 'class' || !wrapper?.body || !wrapperItem || wrapperItem.kind !== 'class')
    return false;
  const members = last.body.pieces;
  const more = wrapper.body.pieces;
  if (members.length === 0 || more.length === 0) return false;
  const column = (offset: number) => offset - (text.lastIndexOf('\n', offset - 1) + 1);
  if (column(members[0]!.start) !== column(more[0]!.start) || column(more[0]!.start) === 0) return false;
  last.end = wrapper.end;
  last.body.end = wrapper.body.end;
  members.push(...more);
  item.children = members.flatMap((p) => p.items);
  item.endLine = wrapperItem.endLine;
  return true;
}

let shared: OutlinePool | undefined;

/** The process-wide pool the outline tool uses. */
export function outlinePool(): OutlinePool {
  shared ??= new OutlinePool();
  return shared;
}

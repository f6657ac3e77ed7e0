/**
 * One batch of the walk's entries (grep-rg-batches.ts) searched by ripgrep in the walk's order, stopped as soon as the
 * page is known: ORDERED_STREAMS rg processes each run with one thread (`-j1`, whose output follows its arguments'
 * order), the batch cut into chunks of about CHUNK_UNITS units dealt to them in turn (chunk 0 to the first, 1 to the
 * second, 2 to the first…), so both cores read and each prints in the walk's order. A chunk is finished once its
 * process prints a line of a later chunk or ends; the finished chunks before the first unfinished one are final, and
 * once their entries fill the page both processes are stopped. One parallel rg over a batch gives its files in no
 * order until it ends, so it read the whole batch even when the page ended in its first part.
 * - `--line-buffered`: a line reaches us as rg prints it (rg buffers a pipe in blocks otherwise), so a chunk is seen
 *   finished when it is.
 * - A folder given whole is walked by rg in the order the disk lists it: its files are put in the walk's order with
 *   the rest of their chunk.
 */
import { addLineRecord, type Collected, countLineArgs, inWalkOrder, lineArgs, noticePath, runRg } from './grep-rg-run';
import type { GrepQuery } from './grep-engines';

/** rg processes of one thread each reading a batch side by side (a core each on the 2-core machines we aim at). */
export const ORDERED_STREAMS = 2;
/**
 * Units of the batch per chunk (grep-rg-batches.ts: a file weighs one, a folder given whole eight): small enough that
 * neither process reads far past the page, big enough that both have work.
 */
export const CHUNK_UNITS = 8;

/**
 * Hands the batch's files with hits to `take` in the walk's order, each as soon as it is final (while rg reads on: the
 * caller may check it meanwhile), until they fill `need` entries (`take` says how many a file gives: 0 when it may not
 * be shown). False when rg refused the pattern or printed a torn line (a name with a line break inside a folder).
 * `batch`: the chunks in the walk's order, each entry `./rel`.
 */
export async function searchOrdered(
  rgPath: string,
  root: string,
  q: GrepQuery,
  signal: AbortSignal,
  need: number,
  base: readonly string[],
  batch: readonly (readonly string[])[],
  take: (rel: string, f: Collected) => number,
): Promise<boolean> {
  const lines = q.mode === 'content' ? lineArgs(need, q.context) : countLineArgs(q.mode);
  const chunkOf = new Map<string, number>();
  batch.forEach((entries, c) => {
    for (const p of entries) chunkOf.set(p, c);
  });
  const chunkOfPath = (printed: string): number => {
    for (let p = printed; ; ) {
      const c = chunkOf.get(p);
      if (c !== undefined) return c;
      const cut = p.lastIndexOf('/');
      if (cut <= 1) return -1;
      p = p.slice(0, cut);
    }
  };
  const chunks = batch.length;
  const streams = Math.min(ORDERED_STREAMS, chunks);
  const relOf = (p: string) => (p.startsWith('./') ? p.slice(2) : p);
  const byChunk: Map<string, Collected>[] = Array.from({ length: chunks }, () => new Map());
  const noticed = new Set<string>();
  // Per process: the chunk of its last line (-1: none yet), whether it has ended.
  const at = Array.from({ length: streams }, () => -1);
  const ended = Array.from({ length: streams }, () => false);
  const controls = Array.from({ length: streams }, () => ({}) as { stop?: () => void });
  let emitted = 0; // chunks already moved to `out`
  let found = 0;
  let torn = false;
  let isFull = false;

  /** The first chunk not known finished: each running process's current (or first) chunk, the least of them. */
  const frontier = () => {
    let least = chunks;
    for (let s = 0; s < streams; s++) if (!ended[s]) least = Math.min(least, at[s]! < 0 ? s : at[s]!);
    return least;
  };
  const advance = () => {
    const upTo = frontier();
    for (; emitted < upTo && !isFull; emitted++) {
      const files = byChunk[emitted]!;
      if (q.mode === 'count') for (const rel of noticed) files.delete(rel); // rg counts no file it stopped at a NUL in
      for (const [rel, f] of inWalkOrder(files)) {
        found += take(rel, f);
        if (found >= need) {
          isFull = true;
          break;
        }
      }
      byChunk[emitted] = new Map();
    }
    if (isFull) for (const c of controls) c.stop?.();
  };

  const run = (s: number) => {
    const args: string[] = [];
    for (let c = s; c < chunks; c += streams) args.push(...batch[c]!);
    const named = new Set(args); // a named file's notice may come alone (rg found its NUL before printing a line)
    let lastPrinted: string | null = null;
    const stopOnTorn = () => {
      torn = true;
      for (const c of controls) c.stop?.();
      return false;
    };
    return runRg(
      rgPath,
      [...base, '--threads', '1', '--line-buffered', ...lines, '--regexp', q.pattern, '--', ...args],
      root,
      signal,
      '\n',
      (record) => {
        if (torn || isFull) return false;
        const cut = record.indexOf('\0');
        if (cut !== -1) {
          if (!record.startsWith('./')) return stopOnTorn();
          const printed = record.slice(0, cut);
          const chunk = printed === lastPrinted ? at[s]! : chunkOfPath(printed);
          if (chunk < 0) return stopOnTorn();
          lastPrinted = printed;
          addLineRecord(record, byChunk[chunk]!, relOf);
          if (chunk !== at[s]) {
            at[s] = chunk;
            advance();
          }
          return !isFull;
        }
        if (record === '--') return true;
        // A notice about a named file, or right after a walked file's own lines (rg writes a file's output at once).
        const about = noticePath(record);
        if (about === null || (about !== lastPrinted && !named.has(about))) return stopOnTorn();
        noticed.add(relOf(about));
        return true;
      },
      controls[s],
    ).then((outcome) => {
      ended[s] = true;
      if (!isFull && !torn) advance();
      return outcome;
    });
  };
  const outcomes = await Promise.all(Array.from({ length: streams }, (_, s) => run(s)));
  return !torn && outcomes.every((o) => o.kind !== 'unusable');
}

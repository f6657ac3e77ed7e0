/**
 * The shape every benchmark returns, the measuring helpers they share, and the printers of the tables `npm run bench`
 * shows. A row compares ours against a peer measured in the same run, or against a fixed bound on this machine.
 * Rows of one scale series (the same operation on 1×, 10×, 100× the input) are shown together in their own table,
 * one line per series, so growth reads at a glance.
 */
import type { Machine } from './machine';

export interface BenchOptions {
  /** `--quick`: smaller inputs and fewer runs, the same code paths; proves the bench works (CI), targets not judged. */
  quick: boolean;
}

export interface BenchRow {
  name: string;
  /** What we measured, e.g. "12.3 ms median". */
  ours: string;
  /** The peer's figure in the same run, or the bound ("< 50 ms"). */
  peer: string;
  /** ours / peer where a ratio applies (`null` once a row that was not finite has passed through JSON). */
  ratio?: number | null;
  target: string;
  pass: boolean;
  /**
   * Set when the row's result is wrong, not slow (our answer differs from the peer's, the scroll never reached the
   * top, the stream was not rendered as Markdown): an error even on a `--quick` run.
   */
  wrong?: string;
  /** Set by the harness: the suite the row came from. */
  suite?: string;
  /**
   * One point of a scale series: rows with the same `series` at different `factor`s (1, 10, 100) form one line of
   * the scale table; `value` (ours, in ms) gives the growth column. The row's own `name` is kept in results.json.
   */
  scale?: { series: string; factor: number; value: number };
}

/** What a run writes to bench/results.json. */
export interface BenchResults {
  machine: Machine;
  quick: boolean;
  /** The suites that ran, with how long each took and the error of one that threw. */
  /** `quietAfterS`: in a full run, how long the bench waited for a quiet machine before the suite (`quiet` false: it gave up). */
  suites: { name: string; seconds: number; quietAfterS?: number; quiet?: boolean; error?: string }[];
  rows: BenchRow[];
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const ms = (value: number): string => `${value < 1 ? value.toFixed(3) : value.toFixed(1)} ms`;

/**
 * Times ours and the peer alternately, run by run, after one warm-up call each (more with `warmUp`), so a burst of
 * background load hits both sides alike instead of one whole series. Returns every sample of each side.
 */
export async function interleaved(
  ours: (i: number) => Promise<unknown> | unknown,
  peer: (i: number) => Promise<unknown> | unknown,
  runs: number,
  warmUp = 1,
): Promise<{ ours: number[]; peer: number[] }> {
  for (let i = 0; i < warmUp; i++) {
    await ours(-1 - i);
    await peer(-1 - i);
  }
  const out = { ours: [] as number[], peer: [] as number[] };
  for (let i = 0; i < runs; i++) {
    // Alternate which side goes first, so neither always runs in the other's wake (caches, GC).
    const order = i % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
    for (const side of order) {
      const started = performance.now();
      await (side === 'ours' ? ours(i) : peer(i));
      out[side].push(performance.now() - started);
    }
  }
  return out;
}

const cells = (header: string[], body: string[][]): string =>
  [header, header.map(() => '---'), ...body]
    .map((row) => `| ${row.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)
    .join('\n');

/** The main table: every row that is not part of a scale series. */
export function printTable(rows: BenchRow[]): string {
  const flat = rows.filter((r) => !r.scale);
  const header = ['benchmark', 'ours', 'peer / bound', 'ratio', 'target', 'ok'];
  return cells(
    header,
    flat.map((r) => [
      r.name,
      r.ours,
      r.peer,
      r.ratio == null ? '' : r.ratio.toFixed(2),
      r.target,
      r.pass ? 'yes' : 'NO',
    ]),
  );
}

/** The scale table: one line per series, a column per factor ("ours (peer)"), and how ours grew from the smallest. */
export function printScaleTable(rows: BenchRow[]): string {
  const scaled = rows.filter((r): r is BenchRow & { scale: NonNullable<BenchRow['scale']> } => Boolean(r.scale));
  if (scaled.length === 0) return '';
  const factors = [...new Set(scaled.map((r) => r.scale.factor))].sort((a, b) => a - b);
  const series = [...new Set(scaled.map((r) => r.scale.series))];
  const body = series.map((name) => {
    const points = scaled.filter((r) => r.scale.series === name);
    const at = (f: number) => points.find((r) => r.scale.factor === f);
    const [low, high] = [at(factors[0]!), at(factors.at(-1)!)];
    const growth = low && high && low.scale.value > 0 ? `${(high.scale.value / low.scale.value).toFixed(1)}×` : '';
    return [
      name,
      ...factors.map((f) => {
        const r = at(f);
        return r ? `${r.ours}${r.peer && r.peer !== '—' ? ` (${r.peer})` : ''}` : '';
      }),
      growth,
      points[0]!.target,
      points.every((r) => r.pass) ? 'yes' : 'NO',
    ];
  });
  return cells(
    ['series', ...factors.map((f) => `${f}×`), `growth ${factors[0]}×→${factors.at(-1)}×`, 'target', 'ok'],
    body,
  );
}

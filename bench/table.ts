/**
 * The shape every benchmark returns, and the printer of the one table `npm run bench` shows.
 * A row compares ours against a peer measured in the same run, or against a fixed bound on this machine.
 */
export interface BenchRow {
  name: string;
  /** What we measured, e.g. "12.3 ms median". */
  ours: string;
  /** The peer's figure in the same run, or the bound ("< 50 ms"). */
  peer: string;
  /** ours / peer where a ratio applies. */
  ratio?: number;
  target: string;
  pass: boolean;
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

export function printTable(rows: BenchRow[]): string {
  const header = ['benchmark', 'ours', 'peer / bound', 'ratio', 'target', 'ok'];
  const body = rows.map((r) => [r.name, r.ours, r.peer, r.ratio === undefined ? '' : r.ratio.toFixed(2), r.target, r.pass ? 'yes' : 'NO']);
  const lines = [header, header.map(() => '---'), ...body].map((cells) => `| ${cells.join(' | ')} |`);
  return lines.join('\n');
}

/**
 * The bench harness's own pieces (bench/table.ts, bench/performance-doc.ts, bench/suite-process.ts): peers timed
 * interleaved, scale rows shown as one line per series, the generated block of docs/performance.md replaced and nothing
 * else, and a suite run in a process of its own that answers with its rows or its error.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLE_END, TABLE_START, rewriteTable } from '../bench/performance-doc';
import type { SuiteAnswer } from '../bench/suite-process';
import { interleaved, printScaleTable, printTable, type BenchResults, type BenchRow } from '../bench/table';

const row = (name: string, pass = true, scale?: BenchRow['scale']): BenchRow => ({
  name,
  ours: '1.0 ms',
  peer: 'rg 2.0 ms',
  target: '≤ 1.2× rg',
  pass,
  scale,
});

describe('interleaved', () => {
  it('alternates ours and the peer run by run, each side first in turn, after the warm-up', async () => {
    const calls: string[] = [];
    const out = await interleaved(
      (i) => calls.push(`o${i}`),
      (i) => calls.push(`p${i}`),
      3,
    );
    expect(calls).toEqual(['o-1', 'p-1', 'o0', 'p0', 'p1', 'o1', 'o2', 'p2']);
    expect(out.ours).toHaveLength(3);
    expect(out.peer).toHaveLength(3);
  });
});

describe('tables', () => {
  const rows = [
    row('plain row'),
    row('grep rare 1×', true, { series: 'grep rare', factor: 1, value: 2 }),
    row('grep rare 100×', false, { series: 'grep rare', factor: 100, value: 50 }),
    row('grep rare 10×', true, { series: 'grep rare', factor: 10, value: 8 }),
    row('history page 1×', true, { series: 'history page', factor: 1, value: 1 }),
  ];

  it('keeps scale rows out of the main table', () => {
    const table = printTable(rows);
    expect(table).toContain('plain row');
    expect(table).not.toContain('grep rare');
  });

  it('shows one line per series, a column per factor, the growth, and fails a series if any point fails', () => {
    const lines = printScaleTable(rows).split('\n');
    expect(lines[0]).toBe('| series | 1× | 10× | 100× | growth 1×→100× | target | ok |');
    expect(lines[2]).toBe(
      '| grep rare | 1.0 ms (rg 2.0 ms) | 1.0 ms (rg 2.0 ms) | 1.0 ms (rg 2.0 ms) | 25.0× | ≤ 1.2× rg | NO |',
    );
    // A series without a point at the largest factor has no growth figure and empty cells.
    expect(lines[3]).toBe('| history page | 1.0 ms (rg 2.0 ms) |  |  |  | ≤ 1.2× rg | yes |');
    expect(printScaleTable([row('plain')])).toBe('');
  });

  it('escapes a pipe inside a cell', () => {
    expect(printTable([row('a | b')])).toContain('a \\| b');
  });
});

describe('the table block of docs/performance.md', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const results: BenchResults = {
    machine: {
      cpu: 'Test CPU',
      cores: 2,
      ramGb: 8,
      os: 'Linux 6',
      node: 'v20.0.0',
      chromium: 'Chromium 1',
      loadStart: [3, 2, 1],
      loadEnd: [1, 1, 1],
      commit: 'abc123',
      dirty: false,
      date: '2026-01-02T03:04:05.000Z',
      summary: '',
    },
    quick: false,
    suites: [{ name: 'ui', seconds: 1 }],
    rows: [row('chat opens'), row('scroll', false)],
  };

  it('replaces only the marked block, with the table and the machine it came from', () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-bench-doc-'));
    const file = join(dir, 'performance.md');
    writeFileSync(file, `# Title\n\nbefore\n\n${TABLE_START}\nold table\n${TABLE_END}\n\nafter\n`);
    rewriteTable(file, results);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('# Title\n\nbefore\n\n')).toBe(true);
    expect(text.endsWith(`${TABLE_END}\n\nafter\n`)).toBe(true);
    expect(text).not.toContain('old table');
    expect(text).toContain('| chat opens | 1.0 ms |');
    expect(text).toContain('1 target(s) missed');
    expect(text).toContain('Test CPU, 2 cores, 8 GB RAM');
    // Load above the core count is said, so nobody reads the figures as an idle machine's.
    expect(text).toContain('a busy machine');
    // Running it twice gives the same file.
    rewriteTable(file, results);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses a file without the markers', () => {
    dir = mkdtempSync(join(tmpdir(), 'skald-bench-doc-'));
    const file = join(dir, 'performance.md');
    writeFileSync(file, '# no markers\n');
    expect(() => rewriteTable(file, results)).toThrow(/markers are missing/);
  });

  it('docs/performance.md has the markers, and the README links it', () => {
    const text = readFileSync(join(import.meta.dirname, '..', 'docs', 'performance.md'), 'utf8');
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    expect(readme).toContain('(docs/performance.md)');
    expect(readme).not.toContain(TABLE_START);
    expect(text.indexOf(TABLE_START)).toBeGreaterThan(-1);
    expect(text.indexOf(TABLE_END)).toBeGreaterThan(text.indexOf(TABLE_START));
  });
});

describe('a suite in its own process', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const runSuite = (name: string): SuiteAnswer => {
    dir = mkdtempSync(join(tmpdir(), 'skald-suite-'));
    const answer = join(dir, 'answer.json');
    const script = join(import.meta.dirname, '..', 'bench', 'suite-process.ts');
    const child = spawnSync(process.execPath, ['--import', 'tsx', script, name, answer, '--quick'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status).toBe(0);
    return JSON.parse(readFileSync(answer, 'utf8')) as SuiteAnswer;
  };

  it("answers with the suite's rows", () => {
    // A suite that needs no build (history and the start rows time the built web shape; vitest runs before the build).
    const answer = runSuite('approval-gate');
    expect('rows' in answer && answer.rows.some((r) => r.name.startsWith('gate decision,'))).toBe(true);
  }, 60_000);

  it('answers with an error for a suite that does not exist', () => {
    expect(runSuite('no-such-suite')).toEqual({ error: expect.stringContaining('no suite "no-such-suite"') });
  }, 60_000);
});

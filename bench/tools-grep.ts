/**
 * `grep_files` against ripgrep (docs/performance.md "Performance targets"): on real trees (this checkout's
 * node_modules, the Python standard library) for every mode, with both of our engines (ripgrep, and the JS engine
 * that runs where rg is absent), and on a generated tree at 1×, 10× and 100× to show how both grow.
 * - Ours runs in-process through the tool, as in the app; the peer is the `rg` CLI over the same files (the same
 *   skip globs, `--hidden --no-ignore`, `--max-filesize`), its whole output read from a pipe: rg's own full run.
 *   The two alternate run by run after a warm-up each, so background load hits both alike.
 * - Our call uses the app's default limit (100) unless the row says "whole answer". A limited page must cost no
 *   more than rg's full run (≤ 1.0×); a whole answer ≤ 1.2× rg; the JS engine ≤ 2× rg.
 * - Identity: every row checks our entries against rg's, entry by entry (path, line, text; count mode: path and
 *   count; files_only: path), rg's answer put in the tool's own order (the walk's: files first, then folders, by
 *   name; within a file by line) and cut where our page ends: a wrong entry, a missing duplicate, a wrong order or a
 *   page cut in the wrong place fails the row, which says what differs.
 * - The rg engine's rows include its JS search of the walk's first files (grep-files.ts `engineResults`): that is
 *   the app's path; the JS engine's rows are what runs where rg is absent.
 * - Labels state the real match rate: matching lines out of all lines searched.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SKIP_DIRS } from '../src/main/core/tools/_policy/fs';
import { compareParts, MAX_GREP_FILE_BYTES } from '../src/main/core/tools/fs/grep-engines';
import { createGrepFilesTool, DEFAULT_GREP_LIMIT, MAX_GREP_LIMIT } from '../src/main/core/tools/fs/grep-files';
import { clipLine } from '../src/main/core/tools/fs/search-engine';
import type { ToolRunContext } from '../src/main/core/tools/tool';
import { median, ms, type BenchOptions, type BenchRow } from './table';

const RG = '/usr/bin/rg';
const RG_POLICY = [
  '--no-config',
  '--hidden',
  '--no-ignore',
  '--color',
  'never',
  '--max-filesize',
  String(MAX_GREP_FILE_BYTES),
  ...[...SKIP_DIRS].flatMap((d) => ['--iglob', `!${d}/`]),
  '--iglob',
  '!secrets',
];

type Mode = 'content' | 'files_only' | 'count';
interface Query {
  label: string;
  pattern: string;
  mode?: Mode;
  caseInsensitive?: boolean;
  context?: number;
  /** The whole answer (limit 5000) instead of the default page. */
  whole?: boolean;
}

/** rg's full run, its output read (and dropped) from a pipe; resolves to the bytes it wrote. */
function rgRun(cwd: string, args: readonly string[], keep = false): Promise<{ bytes: number; out: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(RG, [...RG_POLICY, ...args, '.'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    child.stdout.on('data', (c: Buffer) => {
      bytes += c.length;
      if (keep) chunks.push(c);
    });
    child.on('error', reject);
    child.on('close', () => resolve({ bytes, out: keep ? Buffer.concat(chunks) : Buffer.alloc(0) }));
  });
}

function peerArgs(q: Query): string[] {
  const args = q.caseInsensitive ? ['--ignore-case'] : [];
  if (q.mode === 'files_only') args.push('--files-with-matches');
  else if (q.mode === 'count') args.push('--count');
  else args.push('--line-number', '--no-heading', ...(q.context ? ['--context', String(q.context)] : []));
  return [...args, '--regexp', q.pattern];
}

function toolArgs(q: Query): Record<string, unknown> {
  return {
    pattern: q.pattern,
    output_mode: q.mode ?? 'content',
    case_insensitive: q.caseInsensitive ?? false,
    context_lines: q.context ?? 0,
    limit: q.whole ? MAX_GREP_LIMIT : DEFAULT_GREP_LIMIT,
  };
}

const strip = (p: string) => (p.startsWith('./') ? p.slice(2) : p);
const walkOrder = (a: { parts: string[]; no: number }, b: { parts: string[]; no: number }) =>
  compareParts(a.parts, b.parts) || a.no - b.no;

/** rg's answer as the tool would list it: entries in the walk's order, each as the tool prints it. */
function expectedEntries(out: Buffer, q: Query): string[] {
  const text = out.toString('utf8');
  const records = (q.mode === 'files_only' ? text.split('\0') : text.split('\n'))
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => r && r !== '--');
  const keyed = records.map((r) => {
    const cut = r.indexOf('\0');
    const rel = strip(cut === -1 ? r : r.slice(0, cut));
    const rest = cut === -1 ? '' : r.slice(cut + 1);
    if (q.mode === 'files_only') return { parts: rel.split('/'), no: 0, entry: rel };
    if (q.mode === 'count') return { parts: rel.split('/'), no: 0, entry: `${rel}:${rest}` };
    const m = /^(\d+)([:-])(.*)$/s.exec(rest)!;
    const text = m[3]!.endsWith('\r') ? m[3]!.slice(0, -1) : m[3]!;
    return { parts: rel.split('/'), no: Number(m[1]), entry: `${rel}${m[2]}${m[1]}${m[2]}${clipLine(text)}` };
  });
  return keyed.sort(walkOrder).map((k) => k.entry);
}

/**
 * Ours against rg's first entries in the tool's order: the same entries (path, line, text; duplicates count), in
 * the same order, so a page cut in the wrong place or a wrong order inside it shows. Returns what differs first.
 */
function compareEntries(ours: string[], expected: string[]): string | null {
  const theirs = expected.slice(0, ours.length);
  if (ours.length !== theirs.length) return `${ours.length} entries, rg has ${expected.length}`;
  const i = ours.findIndex((e, k) => e !== theirs[k]);
  return i === -1
    ? null
    : `entry ${i + 1}: ${JSON.stringify(ours[i]).slice(0, 80)} where rg has ${JSON.stringify(theirs[i]).slice(0, 80)}`;
}

/** Alternates the two sides run by run (after one warm-up each), so background load hits both alike. */
async function timePair(a: () => Promise<unknown>, b: () => Promise<unknown>, runs: number): Promise<[number, number]> {
  await a();
  await b();
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await a();
    ta.push(performance.now() - t);
    t = performance.now();
    await b();
    tb.push(performance.now() - t);
  }
  return [median(ta), median(tb)];
}

interface Tree {
  name: string;
  root: string;
  files: number;
  lines: number;
}

async function describeTree(name: string, root: string): Promise<Tree> {
  const files = (await rgRun(root, ['--files'], true)).out.toString('utf8').split('\n').filter(Boolean).length;
  const counts = (await rgRun(root, ['--count', '--null', '--regexp', ''], true)).out.toString('utf8').split('\n');
  const lines = counts.reduce((sum, l) => sum + (Number(l.slice(l.indexOf('\0') + 1)) || 0), 0);
  return { name, root, files, lines };
}

async function matchingLines(tree: Tree, q: Query): Promise<number> {
  const out = (
    await rgRun(
      tree.root,
      [...(q.caseInsensitive ? ['--ignore-case'] : []), '--count', '--null', '--regexp', q.pattern],
      true,
    )
  ).out.toString('utf8');
  return out.split('\n').reduce((sum, l) => sum + (Number(l.slice(l.indexOf('\0') + 1)) || 0), 0);
}

const rate = (hits: number, lines: number) =>
  hits === 0
    ? 'no hits'
    : `${hits.toLocaleString('en')} of ${lines.toLocaleString('en')} lines (1 in ${Math.round(lines / hits).toLocaleString('en')})`;

async function rows(
  tree: Tree,
  queries: readonly Query[],
  engines: readonly ('rg' | 'js')[],
  runs: number,
): Promise<BenchRow[]> {
  const ctx: ToolRunContext = {
    workingDir: tree.root,
    workspaceDir: tree.root,
    signal: new AbortController().signal,
    log: () => undefined,
  };
  const out: BenchRow[] = [];
  for (const q of queries) {
    const hits = await matchingLines(tree, q);
    const expected = expectedEntries((await rgRun(tree.root, ['--null', ...peerArgs(q)], true)).out, q);
    for (const engine of engines) {
      const tool = createGrepFilesTool({ ripgrepPath: engine === 'rg' ? RG : null });
      const ours = async () => {
        const outcome = await tool.executeAsync(toolArgs(q), ctx);
        if (outcome.kind !== 'completed') throw new Error(`grep_files failed: ${JSON.stringify(outcome)}`);
        return outcome.result
          .split('\n')
          .filter((l) => l && l !== '--' && !l.startsWith('[') && !l.startsWith('No matches'));
      };
      const differs = compareEntries(await ours(), expected);
      const same = differs === null;
      const [oursMs, rgMs] = await timePair(ours, () => rgRun(tree.root, peerArgs(q)), runs);
      const ratio = oursMs / rgMs;
      const isPage = !q.whole && expected.length > DEFAULT_GREP_LIMIT;
      const bound = engine === 'js' ? 2 : isPage ? 1 : 1.2;
      const what = `${q.mode ?? 'content'}${q.caseInsensitive ? ' -i' : ''}${q.context ? ` -C${q.context}` : ''} /${q.pattern}/`;
      out.push({
        name: `grep_files ${engine === 'rg' ? 'rg engine' : 'JS engine'}, ${tree.name}: ${q.label}, ${what}, ${rate(hits, tree.lines)}, ${isPage ? `page of ${DEFAULT_GREP_LIMIT}` : 'whole answer'}${same ? '' : ` — RESULTS DIFFER (${differs})`}`,
        ours: ms(oursMs),
        peer: `rg full run ${ms(rgMs)} (medians of ${runs} alternating runs)`,
        ratio,
        target: `≤ ${bound}× rg, same entries in the same order`,
        pass: same && ratio <= bound,
        wrong: same ? undefined : 'results differ from rg',
      });
    }
  }
  return out;
}

const WORDS = [
  'alpha',
  'beta',
  'gamma',
  'delta',
  'return',
  'value',
  'config',
  'server',
  'client',
  'handler',
  'request',
  'result',
  'error',
  'index',
  'token',
  'buffer',
];

/** `folders` × 20 files × 250 lines of generated code; `needle_rare` on about 1 line in 6,700. */
function generateTree(root: string, folders: number): void {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let d = 0; d < folders; d++) {
    const dir = join(root, `pkg${d % 30}`, `mod${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 20; f++) {
      const lines: string[] = [];
      for (let l = 0; l < 250; l++) {
        const words = Array.from({ length: 6 }, () => WORDS[Math.floor(rnd() * WORDS.length)]);
        let line = `  const ${words[0]}_${l} = ${words.slice(1).join(' + ')}; // fn_${Math.floor(rnd() * 100000)}(x)`;
        if (rnd() < 0.00015) line += ' needle_rare';
        lines.push(line);
      }
      writeFileSync(join(dir, `file${f}.ts`), `${lines.join('\n')}\n`);
    }
  }
}

/** The newest `/usr/lib/python3.N` here (the standard library's sources), or '' when there is none. */
function pythonStdlib(): string {
  const versions = existsSync('/usr/lib') ? readdirSync('/usr/lib').filter((n) => /^python3\.\d+$/.test(n)) : [];
  versions.sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
  return versions.length ? `/usr/lib/${versions.at(-1)}` : '';
}

/** The same seven queries on each real tree, with words that are rare, common or in between there. */
function realQueries(w: {
  rare: string;
  common: string;
  regex: string;
  files: string;
  count: string;
  ci: string;
}): Query[] {
  return [
    { label: 'rare literal', pattern: w.rare, whole: true },
    { label: 'common word', pattern: w.common },
    { label: 'regex', pattern: w.regex },
    { label: 'common word', pattern: w.files, mode: 'files_only' },
    { label: 'common word', pattern: w.count, mode: 'count' },
    { label: 'case-insensitive', pattern: w.ci, caseInsensitive: true },
    { label: 'context', pattern: w.rare, context: 2, whole: true },
  ];
}

const REAL: { name: string; root: string; queries: Query[] }[] = [
  {
    name: 'node_modules',
    root: realpathSync(join(import.meta.dirname, '..', 'node_modules')),
    queries: realQueries({
      rare: 'XMLHttpRequest',
      common: 'return',
      regex: 'function [a-z]+Sync\\(',
      files: 'import',
      count: 'return',
      ci: 'deprecated',
    }),
  },
  {
    name: 'Python stdlib',
    root: pythonStdlib(),
    queries: realQueries({
      rare: 'NotImplementedError',
      common: 'self',
      regex: 'def [a-z_]+\\(self, [a-z]+\\)',
      files: 'return',
      count: 'return',
      ci: 'deprecated',
    }),
  },
];

/** `--quick`: the Python tree alone (node_modules is the largest), one timed run, the 1× and 10× trees. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  for (const real of REAL.filter((r) => r.root && existsSync(r.root) && !(quick && r.name === 'node_modules'))) {
    const tree = await describeTree('', real.root);
    tree.name = `${real.name} (${tree.files.toLocaleString('en')} files)`;
    // node_modules' rows take a third of a second a run, where another process's burst moves a median of five by 20%.
    out.push(...(await rows(tree, real.queries, ['rg', 'js'], quick ? 1 : real.name === 'node_modules' ? 11 : 5)));
  }
  const base = mkdtempSync(join(tmpdir(), 'skald-bench-grep-'));
  try {
    for (const [scale, folders] of (
      [
        ['1×', 3],
        ['10×', 30],
        ['100×', 300],
      ] as const
    ).slice(0, quick ? 2 : 3)) {
      const root = join(base, scale);
      generateTree(root, folders);
      const tree = await describeTree('', root);
      tree.name = `generated ${scale} (${tree.files.toLocaleString('en')} files)`;
      const queries: Query[] = [
        { label: 'rare literal', pattern: 'needle_rare', whole: true },
        { label: 'common regex', pattern: 'fn_9[0-9]{3}\\(' },
      ];
      const got = await rows(tree, queries, ['rg', 'js'], quick ? 1 : 7);
      // One scale series per query and engine (rows come query by query, rg then JS): the scale table's lines.
      got.forEach(
        (r, k) =>
          (r.scale = {
            series: `grep_files ${k % 2 ? 'JS' : 'rg'} engine, generated tree: ${queries[Math.floor(k / 2)]!.label}`,
            factor: folders / 3,
            value: parseFloat(r.ours),
          }),
      );
      out.push(...got);
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  return out;
}

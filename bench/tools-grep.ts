/**
 * `grep_files` against ripgrep (docs/performance.md "Performance targets"), on real trees and patterns chosen by a
 * rule (bench/tools-grep-corpus.ts: node_modules, /usr/include, /usr/share, the Python standard library), for every
 * mode, with both of our engines (ripgrep, and the JS engine that runs where rg is absent), and on a generated tree at
 * 1×, 10× and 100× to show how both grow.
 * - Ours runs in-process through the tool, as in the app; the peer is the `rg` CLI over the same files printing what
 *   the tool prints (bench/tools-grep-rg.ts: the same skip globs and flags, lines cut as the app cuts them).
 * - A page (the app's default limit, 100) is timed against rg stopped at its 101st hit (the tool needs one more to
 *   say "more exist") in path order and against rg's whole run: the rg engine ≤ 1.2× the first and ≤ 1.0× the
 *   second. rg stopped at its 101st hit in any order is timed too and shown, not judged: its hits are not a page
 *   (bench/tools-grep-rg.ts says why, docs/performance.md "A page against rg stopped early"). A whole
 *   answer (limit 5000, only where the pattern has at most 5,000 matching lines) against rg's whole run: ≤ 1.2×. The
 *   JS engine: ≤ 2× rg, the same peers. The sides alternate run by run (the order rotating), after a warm-up each.
 * - Identity: every row checks our entries against rg's whole answer, entry by entry (path, line, text; count mode:
 *   path and count; files_only: path), rg's answer put in the tool's own order (the walk's: files first, then folders,
 *   by name; within a file by line) and cut where our page ends: a wrong entry, a missing duplicate, a wrong order or
 *   a page cut in the wrong place fails the row, which says what differs. rg's binary rule holds for both sides;
 *   for a file whose first NUL lies past 64 KB, rg's whole run answers by its threads' history (grep-binary.ts), so
 *   for those few files either rg's answer on each alone or its whole run's is rg's, and the row says how many.
 * - The rg engine's rows include its JS search of the walk's first files (grep-race.ts `engineResults`): that is
 *   the app's path; the JS engine's rows are what runs where rg is absent.
 * - Labels state the real match rate: matching lines out of all lines searched.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGrepFilesTool, DEFAULT_GREP_LIMIT, MAX_GREP_LIMIT } from '../src/main/core/tools/fs/grep-files';
import type { ToolRunContext } from '../src/main/core/tools/tool';
import { median, ms, type BenchOptions, type BenchRow } from './table';
import { chooseWords, describeTree, realTrees, treeQueries, type Tree } from './tools-grep-corpus';
import {
  compareEntries,
  expectedAnswers,
  lateNulFiles,
  peerArgs,
  RG,
  rgFirstHits,
  rgRun,
  type Query,
} from './tools-grep-rg';

function toolArgs(q: Query): Record<string, unknown> {
  return {
    pattern: q.pattern,
    output_mode: q.mode ?? 'content',
    case_insensitive: q.caseInsensitive ?? false,
    context_lines: q.context ?? 0,
    limit: q.whole ? MAX_GREP_LIMIT : DEFAULT_GREP_LIMIT,
  };
}

/** Each side timed run by run after one warm-up each, the order rotating, so background load hits all alike. */
async function timeSides(sides: (() => Promise<unknown>)[], runs: number): Promise<number[]> {
  for (const side of sides) await side();
  const times = sides.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < sides.length; k++) {
      const s = (i + k) % sides.length;
      const started = performance.now();
      await sides[s]!();
      times[s]!.push(performance.now() - started);
    }
  }
  return times.map(median);
}

/** Matching lines of `q` in the tree (rg's count: binary files and their parts after a NUL left out). */
async function matchingLines(tree: Tree, q: Query): Promise<number> {
  const args = [...(q.caseInsensitive ? ['--ignore-case'] : []), '--count', '--regexp', q.pattern];
  const out = (await rgRun(tree.root, args, true)).out.toString('utf8');
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
  const late = await lateNulFiles(tree.root);
  const lateNote = late.length
    ? `; ${late.length} file(s) whose first NUL lies past 64 KB as rg answers alone or in its whole run`
    : '';
  for (const q of queries) {
    const hits = await matchingLines(tree, q);
    if (q.whole && hits > MAX_GREP_LIMIT) continue; // not a whole answer: the limit would cut it
    const expected = await expectedAnswers(tree.root, q, late);
    const isPage = !q.whole && (q.mode && q.mode !== 'content' ? expected.alone.length : hits) > DEFAULT_GREP_LIMIT;
    for (const engine of engines) {
      const tool = createGrepFilesTool({ ripgrepPath: engine === 'rg' ? RG : null });
      const ours = async () => {
        const outcome = await tool.executeAsync(toolArgs(q), ctx);
        if (outcome.kind !== 'completed') throw new Error(`grep_files failed: ${JSON.stringify(outcome)}`);
        return outcome.result
          .split('\n')
          .filter((l) => l && l !== '--' && !l.startsWith('[') && !l.startsWith('No matches'));
      };
      const got = await ours();
      const differs = compareEntries(got, expected.alone) && compareEntries(got, expected.whole);
      const same = differs === null;
      const whole = () => rgRun(tree.root, peerArgs(q));
      const what = `${q.mode ?? 'content'}${q.caseInsensitive ? ' -i' : ''}${q.context ? ` -C${q.context}` : ''} /${q.pattern}/`;
      const name = `grep_files ${engine === 'rg' ? 'rg engine' : 'JS engine'}, ${tree.name}: ${q.label}, ${what}, ${rate(hits, tree.lines)}, ${isPage ? `page of ${DEFAULT_GREP_LIMIT}` : 'whole answer'}${lateNote}${same ? '' : ` — RESULTS DIFFER (${differs})`}`;
      const wrong = same ? undefined : 'results differ from rg';
      const median = `medians of ${runs} interleaved runs`;
      if (isPage) {
        const inOrder = () => rgFirstHits(tree.root, q, DEFAULT_GREP_LIMIT + 1, 'path');
        const anyOrder = () => rgFirstHits(tree.root, q, DEFAULT_GREP_LIMIT + 1, 'any');
        const [oursMs, inOrderMs, anyOrderMs, wholeMs] = await timeSides([ours, inOrder, anyOrder, whole], runs);
        const [toInOrder, toAny, toWhole] = [oursMs! / inOrderMs!, oursMs! / anyOrderMs!, oursMs! / wholeMs!];
        const [boundFirst, boundWhole] = engine === 'js' ? [2, 2] : [1.2, 1];
        const nth = `${DEFAULT_GREP_LIMIT + 1}st hit`;
        out.push({
          name,
          ours: ms(oursMs!),
          peer: `rg in path order stopped at its ${nth} ${ms(inOrderMs!)}; rg in any order stopped at its ${nth} ${ms(anyOrderMs!)} (ours ${toAny.toFixed(2)}× it); rg's whole run ${ms(wholeMs!)} (ours ${toWhole.toFixed(2)}× it); ${median}`,
          ratio: toInOrder,
          target: `≤ ${boundFirst}× rg in path order stopped at its ${nth}, ≤ ${boundWhole}× rg's whole run; same entries`,
          pass: same && toInOrder <= boundFirst && toWhole <= boundWhole,
          wrong,
        });
      } else {
        const [oursMs, wholeMs] = await timeSides([ours, whole], runs);
        const bound = engine === 'js' ? 2 : 1.2;
        out.push({
          name,
          ours: ms(oursMs!),
          peer: `rg's whole run ${ms(wholeMs!)} (${median})`,
          ratio: oursMs! / wholeMs!,
          target: `≤ ${bound}× rg's whole run, same entries`,
          pass: same && oursMs! / wholeMs! <= bound,
          wrong,
        });
      }
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

/** `--quick`: /usr/include alone of the real trees, fewer queries, one timed run, the 1× and 10× trees. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  for (const real of realTrees().filter((t) => !quick || t.name === '/usr/include')) {
    const tree = await describeTree(real.name, real.root);
    const words = await chooseWords(tree);
    out.push(...(await rows(tree, treeQueries(words, quick), ['rg', 'js'], quick ? 1 : real.runs)));
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
      const tree = await describeTree(`generated ${scale}`, root);
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

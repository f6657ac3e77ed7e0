/**
 * `get_ast_outline` on real files the bench did not pick (docs/outline.md "Benchmark"; SPEC §6): the corpora of
 * `tools-outline-corpus.ts` (every stdlib `.py` over 200 lines, every node_modules `.ts`/`.d.ts`/`.js` over 1,000
 * lines, each split at its median line count and sampled with a fixed seed), one row per half:
 * - Identity: per file, our outline against the language's own parser (`tools-outline-peers.ts`) as multisets of
 *   `qualified.name@line`; precision and recall ≥ 0.99 on every file. A file whose peer lists no name compares
 *   nothing and is left out of the row's figures (the row says how many); a file the peer rejects is left out too
 *   and counted by the flag rows.
 * - Time, cold: the tool's whole call (guard, read, parse, outline, format) with the outline cache emptied first
 *   (outside the timer), against the peer's read + parse + walk (TypeScript's `createSourceFile` in this process;
 *   Python's `ast.parse` timed inside python3, per file, without the interpreter's start), alternating run by run,
 *   which side goes first alternating too. Target: the median over the half of the per-file ratios ≤ 1.0.
 * - Warm: the same file again, unchanged (< 2 ms), and after a one-line edit (< 10 ms), checked against a whole parse.
 * - Flags, cold starts, C and Lua: `tools-outline-flags.ts`, `tools-outline-cold.ts`.
 * The machine is shared with other work: compare ratios, not absolute figures.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { formatOutline, getAstOutlineTool, outlineOf } from '../src/main/core/tools/outline/get-ast-outline';
import type { OutlineItem } from '../src/main/core/tools/outline/extract';
import { outlinePool } from '../src/main/core/tools/outline/outline-pool';
import { outlineCache } from '../src/main/core/tools/outline/outline-service';
import type { ToolRunContext } from '../src/main/core/tools/tool';
import { median, ms, type BenchOptions, type BenchRow } from './table';
import {
  type Corpus,
  type CorpusFile,
  pythonCorpus,
  SAMPLE_PER_HALF,
  SEED,
  scriptCorpus,
} from './tools-outline-corpus';
import { coldStartRows } from './tools-outline-cold';
import { flagRows, type Rejected } from './tools-outline-flags';
import { ourKeys, precisionRecall, PythonPeer, tsOutline } from './tools-outline-peers';

export type Call = (name: string) => Promise<{ took: number; result: string }>;

interface Measured {
  file: CorpusFile;
  name: string;
  items: OutlineItem[];
  /** Set when compared: precision, recall and the names compared. */
  pr?: ReturnType<typeof precisionRecall> & { names: number };
  ratio?: number;
  oursMs?: number;
  peerMs?: number;
}

/** `--quick`: 2 files per half, 1 cold and 2 warm runs each. */
export async function run({ quick }: BenchOptions): Promise<BenchRow[]> {
  const RUNS = quick ? 1 : 5;
  const WARM_RUNS = quick ? 2 : 10;
  const perHalf = quick ? 2 : SAMPLE_PER_HALF;
  const root = mkdtempSync(join(tmpdir(), 'skald-bench-outline-'));
  const ctx: ToolRunContext = {
    workingDir: root,
    workspaceDir: root,
    signal: new AbortController().signal,
    log: () => undefined,
  };
  const python = new PythonPeer();
  const rows: BenchRow[] = [];
  const call: Call = async (name) => {
    const t = performance.now();
    const outcome = await getAstOutlineTool.executeAsync({ path: name }, ctx);
    const took = performance.now() - t;
    if (outcome.kind !== 'completed') throw new Error(`get_ast_outline ${name}: ${JSON.stringify(outcome)}`);
    return { took, result: outcome.result };
  };
  let fileNo = 0;
  const rejected: Rejected[] = [];
  const measured: Measured[] = [];
  /** One file: identity, then cold time against its peer; undefined figures when it is left out. */
  const measure = async (file: CorpusFile, isPython: boolean): Promise<Measured | 'rejected'> => {
    const name = `f${fileNo++}-${basename(file.path)}`;
    copyFileSync(file.path, join(root, name));
    const text = readFileSync(file.path, 'utf8');
    const ours = await outlineOf(text, file.path);
    const items = ours?.items ?? [];
    const ourLine = ours?.problems.length ? Math.min(...ours.problems.map((p) => p.line)) : 0;
    let peerKeys: string[];
    if (isPython) {
      const answer = await python.answer(file.path);
      if ('error' in answer) {
        rejected.push({ file: file.short, peerLine: answer.error.line, ourLine, python: true });
        return 'rejected';
      }
      peerKeys = answer.keys;
    } else {
      const answer = tsOutline(file.path);
      if (answer.errorLine > 0 || ourLine > 0) {
        rejected.push({ file: file.short, peerLine: answer.errorLine, ourLine, python: false });
        return 'rejected';
      }
      peerKeys = answer.keys;
    }
    const m: Measured = { file, name, items };
    if (peerKeys.length === 0 && items.length === 0) return m; // nothing to compare
    m.pr = { ...precisionRecall(ourKeys(items), peerKeys), names: peerKeys.length };
    const oursMs: number[] = [];
    const peerMs: number[] = [];
    const peer = async () => {
      if (isPython) return (await python.outline(file.path)).ms;
      const t = performance.now();
      tsOutline(file.path);
      return performance.now() - t;
    };
    outlineCache().clear();
    await call(name); // warm-up of both sides (JIT, the peer's file in the page cache)
    await peer();
    for (let i = 0; i < RUNS; i++) {
      for (const side of i % 2 === 0 ? ['ours', 'peer'] : ['peer', 'ours']) {
        if (side === 'peer') peerMs.push(await peer());
        else {
          outlineCache().clear();
          oursMs.push((await call(name)).took);
        }
      }
    }
    m.oursMs = median(oursMs);
    m.peerMs = median(peerMs);
    m.ratio = m.oursMs / m.peerMs;
    return m;
  };
  try {
    const corpora: [string, Corpus | null, boolean][] = [
      ['Python', pythonCorpus(perHalf), true],
      ['TypeScript / .d.ts / JavaScript', scriptCorpus(perHalf), false],
    ];
    for (const [label, corpus, isPython] of corpora) {
      if (!corpus) {
        rows.push({
          name: `get_ast_outline ${label}: no corpus (python3 not found)`,
          ours: '—',
          peer: '—',
          target: '—',
          pass: false,
        });
        continue;
      }
      for (const half of ['small', 'large'] as const) {
        const list: Measured[] = [];
        let rejectedHere = 0;
        for (const file of corpus[half]) {
          const m = await measure(file, isPython);
          if (m === 'rejected') rejectedHere++;
          else list.push(m);
        }
        measured.push(...list);
        rows.push(halfRow(label, corpus, half, list, rejectedHere, isPython));
      }
    }
    rows.push(...(await warmRows(measured, root, call, WARM_RUNS)));
    rows.push(...(await flagRows({ root, call, python, rejected, quick })));
    await outlinePool().close();
    rows.push(...(await coldStartRows({ root, call, quick })));
  } finally {
    python.close();
    await outlinePool().close();
    rmSync(root, { recursive: true, force: true });
  }
  return rows;
}

const f3 = (n: number) => n.toFixed(3);

function halfRow(
  label: string,
  corpus: Corpus,
  half: 'small' | 'large',
  list: Measured[],
  rejected: number,
  isPython: boolean,
): BenchRow {
  const peerName = isPython ? 'ast.parse + walk (timed in Python)' : 'tsc createSourceFile + walk';
  const compared = list.filter((m) => m.pr && m.ratio !== undefined);
  const empty = list.filter((m) => !m.pr);
  const lines = corpus[half].map((f) => f.lines);
  const range = `${Math.min(...lines).toLocaleString('en')}–${Math.max(...lines).toLocaleString('en')} lines`;
  const minP = Math.min(...compared.map((m) => m.pr!.precision));
  const minR = Math.min(...compared.map((m) => m.pr!.recall));
  const names = compared.reduce((n, m) => n + m.pr!.names, 0);
  const differs = compared.filter((m) => m.pr!.precision < 0.99 || m.pr!.recall < 0.99);
  const ratios = compared.map((m) => m.ratio!);
  const worst = compared.reduce<Measured | undefined>((a, b) => (!a || b.ratio! > a.ratio! ? b : a), undefined);
  const medianRatio = median(ratios);
  const left = [
    empty.length ? `${empty.length} with no name left out (${empty.map((m) => m.file.short).join(', ')})` : '',
    rejected ? `${rejected} the peer rejects left out (flag rows)` : '',
  ].filter(Boolean);
  const detail = differs
    .map(
      (m) =>
        `${m.file.short}: missing ${m.pr!.missing.slice(0, 2).join(', ')}; extra ${m.pr!.extra.slice(0, 2).join(', ')}`,
    )
    .join(' | ');
  return {
    name:
      `get_ast_outline cold, ${label}, ${half} half (${corpus.rule}: ${corpus.found} files, halves split at ` +
      `${corpus.splitAt.toLocaleString('en')} lines; ${corpus[half].length} sampled, seed ${SEED}, ${range}): ` +
      `${compared.length} files compared${left.length ? `, ${left.join(', ')}` : ''}; names vs ${peerName}: ` +
      `precision ≥ ${f3(minP)}, recall ≥ ${f3(minR)} on every file (${names.toLocaleString('en')} names); ` +
      `time: median of per-file ratios (max ${worst ? `${worst.ratio!.toFixed(2)}, ${worst.file.short}` : '—'})` +
      (differs.length ? ` — DIFFERS: ${detail}` : ''),
    ours: `median ratio ${medianRatio.toFixed(2)} (files' medians: ours ${ms(median(compared.map((m) => m.oursMs!)))}, peer ${ms(median(compared.map((m) => m.peerMs!)))})`,
    peer: `${peerName} = 1.00`,
    ratio: medianRatio,
    target: 'P, R ≥ 0.99 on every file; ≤ 1.0×',
    pass: differs.length === 0 && compared.length > 0 && medianRatio <= 1,
    ...(differs.length ? { wrong: `names differ from the peer's on ${differs.length} file(s): ${detail}` } : {}),
  };
}

async function warmRows(measured: Measured[], root: string, call: Call, warmRuns: number): Promise<BenchRow[]> {
  const unchanged: { file: string; ms: number }[] = [];
  const edits: Record<'rename' | 'comment', { file: string; ms: number; cpu: number; same: boolean }[]> = {
    rename: [],
    comment: [],
  };
  for (const m of measured) {
    const isPython = m.file.path.endsWith('.py');
    const base = readFileSync(m.file.path, 'utf8');
    writeFileSync(join(root, m.name), base);
    await call(m.name);
    await call(m.name);
    const again: number[] = [];
    for (let i = 0; i < warmRuns; i++) again.push((await call(m.name)).took);
    unchanged.push({ file: m.file.short, ms: median(again) });
    for (const kind of ['rename', 'comment'] as const) {
      writeFileSync(join(root, m.name), base);
      await call(m.name);
      const times: number[] = [];
      const cpus: number[] = [];
      let same = true;
      for (let i = 0; i < warmRuns; i++) {
        const text = kind === 'rename' ? renameMiddle(base, m.items, i, isPython) : commentMiddle(base, isPython, i);
        writeFileSync(join(root, m.name), text);
        const used = process.cpuUsage();
        const { took, result } = await call(m.name);
        const cpu = process.cpuUsage(used);
        times.push(took);
        cpus.push((cpu.user + cpu.system) / 1000);
        if (i === 0 || i === warmRuns - 1) {
          const whole = await outlineOf(text, m.file.path);
          const items = whole?.items ?? [];
          same &&=
            whole?.problems.length || items.length === 0
              ? true // an edit that happens to break the file, or an empty outline: the answer's form differs
              : result.endsWith(`:\n${formatOutline(items).join('\n')}`);
        }
      }
      edits[kind].push({ file: m.file.short, ms: median(times), cpu: median(cpus), same });
    }
  }
  const worst = <T extends { ms: number }>(list: T[]): T => list.reduce((a, b) => (b.ms > a.ms ? b : a));
  const rows: BenchRow[] = [];
  const w = worst(unchanged);
  rows.push({
    name: `get_ast_outline again, file unchanged (its stamp: inode, size, change times), the ${unchanged.length} corpus files above: median; worst ${w.file}`,
    ours: `${ms(median(unchanged.map((u) => u.ms)))} (worst ${ms(w.ms)})`,
    peer: '< 2 ms',
    target: 'every file < 2 ms',
    pass: w.ms < 2,
  });
  for (const kind of ['rename', 'comment'] as const) {
    const list = edits[kind];
    const we = worst(list);
    const wrong = list.filter((e) => !e.same).map((e) => e.file);
    const what = kind === 'rename' ? 'the middle definition renamed' : 'a comment line put in the middle';
    rows.push({
      name: `get_ast_outline after a one-line edit (${what}), the ${list.length} corpus files above: median; worst ${we.file}${wrong.length ? ` — DIFFERS from a whole parse: ${wrong.join(', ')}` : ''}`,
      ours: `${ms(median(list.map((e) => e.ms)))} (worst ${ms(we.ms)}; its CPU ${ms(we.cpu)}, the process's, all threads)`,
      peer: '< 10 ms',
      target: 'every file < 10 ms, same as a whole parse',
      pass: we.ms < 10 && wrong.length === 0,
      ...(wrong.length ? { wrong: `differs from a whole parse: ${wrong.join(', ')}` } : {}),
    });
  }
  return rows;
}

/** Where each line of `text` starts (its first line at 0). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
}

/**
 * The middle definition's name, changed on its own line (a different name on each call). The edited text is made
 * by slicing around that one line, not by splitting the file into lines: a split of a 5 MB file leaves garbage that
 * the next timed call would collect.
 */
function renameMiddle(text: string, items: readonly OutlineItem[], k: number, isPython: boolean): string {
  const flat = items.flatMap(function all(i: OutlineItem): OutlineItem[] {
    return [i, ...i.children.flatMap(all)];
  });
  const item = [...flat].sort((a, b) => a.line - b.line)[Math.floor(flat.length / 2)];
  if (!item || !/^[\w$]+$/.test(item.name)) return commentMiddle(text, isPython, k);
  const starts = lineStarts(text);
  const from = starts[item.line - 1]!;
  const to = item.line < starts.length ? starts[item.line]! - 1 : text.length;
  const line = text
    .slice(from, to)
    .replace(new RegExp(`\\b${item.name.replace(/\$/g, '\\$')}\\b`), `${item.name}_edited${k}`);
  return text.slice(0, from) + line + text.slice(to);
}

/** A comment line put after the file's middle line (Python: a line inside a string stays a line of the string). */
function commentMiddle(text: string, isPython: boolean, k: number): string {
  const starts = lineStarts(text);
  const at = starts[Math.floor(starts.length / 2)]!;
  return `${text.slice(0, at)}${isPython ? '#' : '//'} edited ${k}\n${text.slice(at)}`;
}

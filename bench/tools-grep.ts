/**
 * `grep_files` against ripgrep on a large generated tree (docs/architecture.md "Performance targets": same query, same
 * results). The tree (~6,000 files, ~60 MB of text in 300 folders) is generated into a temp dir; both sides run warm
 * (page cache filled by a first run) and alternate run by run. `rg` runs as the CLI people use, `--hidden --no-ignore`
 * so both search the same files; we run in-process, as the tool runs in the app. Each query checks that both found the
 * same matches.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grepFilesTool, MAX_GREP_LIMIT } from '../src/main/core/tools/fs/grep-files';
import type { ToolRunContext } from '../src/main/core/tools/tool';
import { median, ms, type BenchRow } from './table';

const RG = '/usr/bin/rg';
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'return', 'value', 'config', 'server', 'client', 'handler', 'request', 'result', 'error', 'index', 'token', 'buffer'];

function generateTree(root: string): void {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let d = 0; d < 300; d++) {
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

function rg(root: string, args: string[]): string {
  return execFileSync(RG, ['--no-config', '--hidden', '--no-ignore', '--color', 'never', ...args, '.'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
}

const strip = (p: string) => (p.startsWith('./') ? p.slice(2) : p);

/** Alternates the two sides run by run (after one warm-up each), so background load hits both alike. */
async function timePair(a: () => unknown, b: () => unknown, runs: number): Promise<[number, number]> {
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

export async function run(): Promise<BenchRow[]> {
  const root = mkdtempSync(join(tmpdir(), 'skald-bench-grep-'));
  try {
    generateTree(root);
    const ctx: ToolRunContext = { workingDir: root, workspaceDir: root, signal: new AbortController().signal, log: () => undefined };
    const ours = async (args: Record<string, unknown>) => {
      const outcome = await grepFilesTool.executeAsync({ limit: MAX_GREP_LIMIT, ...args }, ctx);
      if (outcome.kind !== 'completed') throw new Error(`grep_files failed: ${JSON.stringify(outcome)}`);
      return outcome.result.split('\n').slice(0, -1);
    };
    const queries: { name: string; ours: Record<string, unknown>; rg: string[]; key: (line: string) => string; rgKey: (line: string) => string }[] = [
      {
        name: 'literal, rare (content)',
        ours: { pattern: 'needle_rare' },
        rg: ['-n', '--no-heading', '-F', 'needle_rare'],
        key: (l) => l.split(':').slice(0, 2).join(':'),
        rgKey: (l) => strip(l.split(':').slice(0, 2).join(':')),
      },
      {
        name: 'regex, ~1/12 lines (content, first 5000)',
        ours: { pattern: 'fn_9[0-9]{3}\\(' },
        rg: ['-n', '--no-heading', 'fn_9[0-9]{3}\\('],
        key: (l) => l.split(':').slice(0, 2).join(':'),
        rgKey: (l) => strip(l.split(':').slice(0, 2).join(':')),
      },
      {
        name: 'literal, common (files_only)',
        ours: { pattern: 'fn_777', output_mode: 'files_only' },
        rg: ['-l', '-F', 'fn_777'],
        key: (l) => l,
        rgKey: (l) => strip(l),
      },
    ];
    const rows: BenchRow[] = [];
    for (const q of queries) {
      const mine = await ours(q.ours);
      const theirs = rg(root, q.rg).split('\n').filter(Boolean);
      const mineKeys = new Set(mine.map(q.key));
      let theirKeys = theirs.map(q.rgKey).sort();
      // Our content page stops at MAX_GREP_LIMIT entries in path order; compare the same first entries.
      if (mine.length >= MAX_GREP_LIMIT) theirKeys = theirKeys.filter((k) => mineKeys.has(k) || k < [...mineKeys].sort().at(-1)!);
      const same = mineKeys.size === theirKeys.length && theirKeys.every((k) => mineKeys.has(k));
      const [oursMs, rgMs] = await timePair(() => ours(q.ours), () => rg(root, q.rg), 11);
      const ratio = oursMs / rgMs;
      rows.push({
        name: `grep_files vs rg: ${q.name}, ${theirs.length} hits${same ? '' : ' — RESULTS DIFFER'}`,
        ours: ms(oursMs),
        peer: `rg ${ms(rgMs)}`,
        ratio,
        target: '≤ 1.5× rg, same results',
        pass: same && ratio <= 1.5,
      });
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/**
 * The grep bench's trees and patterns, chosen by a rule (never by hand):
 * - Trees: this checkout's node_modules, /usr/include, /usr/share and the Python standard library, as they are on the
 *   machine (files and lines counted by rg itself, binary files left out of the lines).
 * - Words: 200 of the tree's text files (under 1 MB, no NUL in their first 8 KB) drawn with a fixed seed; every word
 *   in their first 64 KB (a letter and 3 to 24 small letters: `return`, the `Value` of `getValue`; not base64), ranked by how many of those files hold it.
 *   Candidates are the words at ranks 1, 2, 3, 5, 8, … (each about 1.5× the one before); one rg run counts each
 *   candidate's matches in the whole tree (`rg -o`). From them: the `common` word has the most matches; `mid` is the
 *   first by rank with one match in 1,000 to 5,000 lines (a page of 100 needs a fair part of the tree); `rare` the
 *   first with 20 to 2,000 matches (a whole answer). A band without a candidate takes the one nearest to it.
 * - The `regex` is the mid word followed by more word characters and an opening parenthesis (a call of a name that
 *   starts with it), in characters both dialects read alike (`[A-Za-z0-9_]`, not `\w`, which is Unicode in rg).
 * - `-i todo` on every tree, as the audit ran it.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { rgLines, rgRun, type Query } from './tools-grep-rg';

const SEED = 47;
const SAMPLE_FILES = 200;
const SAMPLE_MAX_BYTES = 1024 * 1024;
const SAMPLE_READ_BYTES = 64 * 1024;
const WORD = /[A-Za-z][a-z]{3,24}/g;

export interface Tree {
  name: string;
  root: string;
  files: number;
  lines: number;
}

export interface TreeWords {
  common: string;
  mid: string;
  rare: string;
  /** Each chosen word's matches in the tree (rg -o), for the label. */
  matches: Record<'common' | 'mid' | 'rare', number>;
}

/** Files (rg --files, the bench's policy flags) and lines of text (rg's count of every line). */
export async function describeTree(name: string, root: string): Promise<Tree & { paths: string[] }> {
  const paths = (await rgRun(root, ['--files'], true)).out.toString('utf8').split('\0').filter(Boolean);
  const counts = (await rgRun(root, ['--count', '--regexp', ''], true)).out.toString('utf8').split('\n');
  const lines = counts.reduce((sum, l) => sum + (Number(l.slice(l.indexOf('\0') + 1)) || 0), 0);
  return { name: `${name} (${paths.length.toLocaleString('en')} files)`, root, files: paths.length, lines, paths };
}

/** mulberry32: the same draws on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Words ranked by how many sampled files hold them (ties by the word). */
function rankedWords(root: string, paths: readonly string[]): string[] {
  const rnd = random(SEED);
  const order = [...paths].sort();
  const df = new Map<string, number>();
  let taken = 0;
  for (let i = order.length - 1; i > 0 && taken < SAMPLE_FILES; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(root, order[i]!));
    } catch {
      continue;
    }
    if (bytes.length > SAMPLE_MAX_BYTES || bytes.subarray(0, 8192).includes(0)) continue;
    taken++;
    const words = new Set(bytes.toString('latin1', 0, SAMPLE_READ_BYTES).match(WORD) ?? []);
    for (const w of words) df.set(w, (df.get(w) ?? 0) + 1);
  }
  return [...df.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
}

/** The common, mid and rare words of a tree, by the rule above. */
export async function chooseWords(tree: Tree & { paths: string[] }): Promise<TreeWords> {
  const ranked = rankedWords(tree.root, tree.paths);
  const candidates: string[] = [];
  for (let rank = 1; rank <= ranked.length; rank = Math.max(rank + 1, Math.floor(rank * 1.5)))
    candidates.push(ranked[rank - 1]!);
  const matches = new Map<string, number>(candidates.map((w) => [w, 0]));
  const args = ['--only-matching', '--no-filename', '--no-line-number', ...candidates.flatMap((w) => ['--regexp', w])];
  await rgLines(tree.root, args, (m) => {
    const n = matches.get(m);
    if (n !== undefined) matches.set(m, n + 1);
  });
  const inBand = (low: number, high: number) => {
    const hit = candidates.find((w) => matches.get(w)! >= low && matches.get(w)! <= high);
    if (hit) return hit;
    const middle = Math.sqrt(low * high);
    const distance = (w: string) => Math.abs(Math.log((matches.get(w)! + 1) / middle));
    return [...candidates].sort((a, b) => distance(a) - distance(b))[0]!;
  };
  const common = [...candidates].sort((a, b) => matches.get(b)! - matches.get(a)!)[0]!;
  const mid = inBand(tree.lines / 5000, tree.lines / 1000);
  const rare = inBand(20, 2000);
  return {
    common,
    mid,
    rare,
    matches: { common: matches.get(common)!, mid: matches.get(mid)!, rare: matches.get(rare)! },
  };
}

/** The queries of a tree: pages of the common and mid words and of `-i todo`, whole answers of the rare word. */
export function treeQueries(w: TreeWords, quick: boolean): Query[] {
  const all: Query[] = [
    { label: 'case-insensitive', pattern: 'todo', caseInsensitive: true },
    { label: 'common word', pattern: w.common },
    { label: 'common word', pattern: w.common, mode: 'files_only' },
    { label: 'common word', pattern: w.common, mode: 'count' },
    { label: 'mid word', pattern: w.mid },
    { label: 'regex', pattern: `${w.mid}[A-Za-z0-9_]*\\(` },
    { label: 'rare word', pattern: w.rare, whole: true },
    { label: 'rare word, context', pattern: w.rare, context: 2, whole: true },
    { label: 'case-insensitive', pattern: 'todo', caseInsensitive: true, whole: true },
  ];
  return quick ? all.filter((q) => q.label !== 'common word' || !q.mode) : all;
}

/** The newest `/usr/lib/python3.N` here (the standard library's sources), or '' when there is none. */
function pythonStdlib(): string {
  const versions = existsSync('/usr/lib') ? readdirSync('/usr/lib').filter((n) => /^python3\.\d+$/.test(n)) : [];
  versions.sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));
  return versions.length ? `/usr/lib/${versions.at(-1)}` : '';
}

/** The real trees, those that exist here; `runs` per side of each row (/usr/share's whole run takes seconds). */
export function realTrees(): { name: string; root: string; runs: number }[] {
  const trees = [
    { name: 'node_modules', root: realpathSync(join(import.meta.dirname, '..', 'node_modules')), runs: 11 },
    { name: '/usr/include', root: '/usr/include', runs: 11 },
    { name: '/usr/share', root: '/usr/share', runs: 3 },
    { name: 'Python stdlib', root: pythonStdlib(), runs: 7 },
  ];
  return trees.filter((t) => t.root && existsSync(t.root));
}

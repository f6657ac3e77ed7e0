/**
 * The outline bench's inputs, chosen by a rule (docs/outline.md "Benchmark"), never by hand:
 * - Python: every `.py` module of the standard library (found through `sysconfig`, `site-packages` left out) over
 *   200 lines;
 * - TypeScript and JavaScript: every `.ts`, `.d.ts` and `.js` file in this checkout's node_modules over 1,000 lines
 *   (symbolic links not followed).
 * Each set is split at its median line count into a small and a large half, and each half is sampled to
 * SAMPLE_PER_HALF files with a fixed seed (the same files on every run of the same machine).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const NODE_MODULES = resolve(import.meta.dirname, '..', 'node_modules');
export const SEED = 47;
export const SAMPLE_PER_HALF = 20;
export const PYTHON_MIN_LINES = 200;
export const SCRIPT_MIN_LINES = 1_000;

export interface CorpusFile {
  path: string;
  /** Shown in rows: the path under node_modules, or `stdlib/…`. */
  short: string;
  lines: number;
}

export interface Corpus {
  /** What the rule is, for the rows' labels. */
  rule: string;
  /** How many files the rule found before sampling. */
  found: number;
  /** The line count the halves are split at (small: below it). */
  splitAt: number;
  small: CorpusFile[];
  large: CorpusFile[];
  /** Every file the rule found. */
  files: CorpusFile[];
}

export function stdlibDir(): string {
  try {
    return execFileSync('python3', ['-c', "import sysconfig; print(sysconfig.get_paths()['stdlib'])"], {
      encoding: 'utf8',
    }).trim();
  } catch {
    return '';
  }
}

/** Every regular file under `root` (symbolic links are not followed) whose name passes `keep`, sorted. */
export function filesUnder(
  root: string,
  keep: (name: string) => boolean,
  skipDir = (_name: string) => false,
): string[] {
  const out: string[] = [];
  const visit = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (!skipDir(e.name)) visit(path);
      } else if (e.isFile() && keep(e.name)) out.push(path);
    }
  };
  visit(root);
  return out.sort();
}

export function lineCount(bytes: Buffer): number {
  let n = 1;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/** mulberry32: a small seeded generator, so a sample is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sample<T>(list: readonly T[], count: number, seed = SEED): T[] {
  const random = seeded(seed);
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

function corpusOf(rule: string, files: CorpusFile[], perHalf: number): Corpus {
  const byLines = [...files].sort((a, b) => a.lines - b.lines || a.path.localeCompare(b.path));
  const mid = Math.floor(byLines.length / 2);
  const splitAt = byLines[mid]?.lines ?? 0;
  return {
    rule,
    found: files.length,
    splitAt,
    small: sample(byLines.slice(0, mid), perHalf).sort((a, b) => a.lines - b.lines),
    large: sample(byLines.slice(mid), perHalf).sort((a, b) => a.lines - b.lines),
    files,
  };
}

function withLines(paths: string[], minLines: number, shortOf: (path: string) => string): CorpusFile[] {
  const out: CorpusFile[] = [];
  for (const path of paths) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch {
      continue;
    }
    if (bytes.length < minLines) continue; // fewer bytes than lines: cannot pass
    const lines = lineCount(bytes);
    if (lines > minLines) out.push({ path, short: shortOf(path), lines });
  }
  return out;
}

/** Every stdlib `.py` file (any size): the set the parse flag is checked on. */
export function stdlibFiles(lib = stdlibDir()): string[] {
  if (!lib) return [];
  return filesUnder(
    lib,
    (name) => name.endsWith('.py'),
    (name) => name === 'site-packages' || name === '__pycache__',
  );
}

export function pythonCorpus(perHalf = SAMPLE_PER_HALF): Corpus | null {
  const lib = stdlibDir();
  if (!lib) return null;
  const files = withLines(stdlibFiles(lib), PYTHON_MIN_LINES, (p) => `stdlib/${relative(lib, p)}`);
  return corpusOf(`every stdlib .py over ${PYTHON_MIN_LINES} lines`, files, perHalf);
}

export function scriptCorpus(perHalf = SAMPLE_PER_HALF): Corpus {
  const paths = filesUnder(NODE_MODULES, (name) => /\.(?:ts|js)$/.test(name));
  const files = withLines(paths, SCRIPT_MIN_LINES, (p) => relative(NODE_MODULES, p));
  return corpusOf(
    `every .ts/.d.ts/.js in node_modules over ${SCRIPT_MIN_LINES.toLocaleString('en')} lines`,
    files,
    perHalf,
  );
}

/** The file of the list whose line count is nearest `lines` (the fresh-process and after-idle rows). */
export function nearest(files: readonly CorpusFile[], lines: number): CorpusFile | undefined {
  return [...files].sort((a, b) => Math.abs(a.lines - lines) - Math.abs(b.lines - lines))[0];
}

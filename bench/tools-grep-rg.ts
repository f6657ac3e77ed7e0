/**
 * The grep bench's peer: the `rg` CLI over the same files as `grep_files` (the same skip globs, `--hidden
 * --no-ignore`, `--max-filesize`), printing what the tool prints: `--null` paths and lines cut as the app's rg engine
 * cuts them (`--max-columns 1501 --max-columns-preview`, grep-ripgrep.ts PREVIEW_BYTES; the tool then shows at most
 * 500 characters of a line). Two ways to run it:
 * - rg's whole run: its whole output read from a pipe;
 * - rg stopped at its Nth hit: its output read as it streams and rg killed as soon as the Nth hit (a matching line,
 *   or a file in files/count mode) has arrived, as `rg … | head -n N` does. Timed to that hit's arrival (the kill
 *   is not waited for). Two orders:
 *   - in path order (`--sort path`, which makes rg search on one thread): a page as rg can give one, the first hits
 *     of a fixed order, so the next page can go on from it. rg's order sorts a folder's files and subfolders together
 *     by name where the tool's walk takes the files first, so the two pages may end at different places.
 *   - in any order (rg's threads, unsorted): whichever hits its threads found first. As cheap as rg's first hits can
 *     be, but not a page: the tool must show the walk's first hits, and those can lie much further on.
 * rg's binary rule (docs/tools.md "Binary files"): a file whose NUL byte lies in what rg reads first is left out; one
 * whose first NUL comes later keeps the matches rg found before it, and rg prints a warning line after them
 * (`path: WARNING: stopped searching binary file after match (found "\0" byte around offset N)`), which is not an
 * entry; in count mode rg leaves such a file out.
 */
import { spawn } from 'node:child_process';
import { SKIP_DIRS } from '../src/main/core/tools/_policy/fs';
import { compareParts, MAX_GREP_FILE_BYTES } from '../src/main/core/tools/fs/grep-engines';
import { clipLine, MAX_MATCH_LINE_CHARS } from '../src/main/core/tools/fs/search-engine';

export const RG = '/usr/bin/rg';
/** The app's rg engine reads at most this many bytes of a line (grep-ripgrep.ts PREVIEW_BYTES). */
const PREVIEW_BYTES = MAX_MATCH_LINE_CHARS * 3 + 1;
const RG_POLICY = [
  '--no-config',
  '--hidden',
  '--no-ignore',
  '--color',
  'never',
  '--null',
  '--max-filesize',
  String(MAX_GREP_FILE_BYTES),
  ...[...SKIP_DIRS].flatMap((d) => ['--iglob', `!${d}/`]),
  '--iglob',
  '!secrets',
];

export type Mode = 'content' | 'files_only' | 'count';

export interface Query {
  label: string;
  pattern: string;
  mode?: Mode;
  caseInsensitive?: boolean;
  context?: number;
  /** The whole answer (limit 5000) instead of the default page. */
  whole?: boolean;
}

/** The peer's arguments for `q`: the same output as the tool's, lines cut as the app cuts them. */
export function peerArgs(q: Query): string[] {
  const args = q.caseInsensitive ? ['--ignore-case'] : [];
  if (q.mode === 'files_only') args.push('--files-with-matches');
  else if (q.mode === 'count') args.push('--count');
  else {
    args.push('--line-number', '--no-heading', '--max-columns', String(PREVIEW_BYTES), '--max-columns-preview');
    if (q.context) args.push('--context', String(q.context));
  }
  return [...args, '--regexp', q.pattern];
}

/** rg's line after the hits of a file that turned binary part-way (rg 13: the second form for named files). */
const BINARY_NOTICE =
  / (WARNING: stopped searching binary file after match|binary file matches) \(found "\\0" byte around offset \d+\)$/;

/** Whether a record of rg's output is an entry of the tool's: not a `--` between hunks, nor a binary file's notice. */
function isEntry(record: string, mode: Mode): boolean {
  if (mode === 'files_only') return record !== '';
  if (record === '' || record === '--') return false;
  return record.includes('\0') || !BINARY_NOTICE.test(record);
}

/** Whether a record is a hit: a file (files/count mode) or a matching line (`path\0N:`), not a context line. */
function isHit(record: string, mode: Mode): boolean {
  if (!isEntry(record, mode)) return false;
  return mode !== 'content' || /^\d+:/.test(record.slice(record.indexOf('\0') + 1));
}

/** rg's whole run over `cwd` (or over `paths` in it), its output read (and kept with `keep`) from a pipe. */
export function rgRun(
  cwd: string,
  args: readonly string[],
  keep = false,
  paths: readonly string[] = ['.'],
): Promise<{ bytes: number; out: Buffer }> {
  return new Promise((resolve, reject) => {
    const child = spawn(RG, [...RG_POLICY, ...args, '--', ...paths], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
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

/** rg's whole run over `cwd`, each line of its output (decoded as UTF-8) handed to `onLine` as it streams. */
export function rgLines(cwd: string, args: readonly string[], onLine: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(RG, [...RG_POLICY, ...args, '.'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop()!;
      for (const line of lines) onLine(line);
    });
    child.on('error', reject);
    child.on('close', () => {
      if (rest) onLine(rest);
      resolve();
    });
  });
}

/**
 * rg stopped at its `hits`th hit, in path order (`--sort path`) or in whichever order its threads find them:
 * resolves as soon as that hit has arrived (rg is killed then), or when rg ends with fewer. Returns how many hits it
 * read.
 */
export function rgFirstHits(cwd: string, q: Query, hits: number, order: 'path' | 'any'): Promise<number> {
  const mode = q.mode ?? 'content';
  const separator = mode === 'files_only' ? '\0' : '\n';
  const sort = order === 'path' ? ['--sort', 'path'] : [];
  return new Promise((resolve, reject) => {
    const args = [...RG_POLICY, ...sort, ...peerArgs(q), '.'];
    const child = spawn(RG, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let rest = '';
    let seen = 0;
    let done = false;
    child.stdout.setEncoding('latin1'); // bytes as they come: only separators are looked for
    child.stdout.on('data', (chunk: string) => {
      if (done) return;
      const records = (rest + chunk).split(separator);
      rest = records.pop()!;
      for (const r of records) {
        if (isHit(r, mode) && ++seen >= hits) {
          done = true;
          child.kill('SIGKILL');
          resolve(seen);
          return;
        }
      }
    });
    child.on('error', reject);
    child.on('close', () => {
      if (!done) resolve(seen + (rest && isHit(rest, mode) ? 1 : 0));
    });
  });
}

const strip = (p: string) => (p.startsWith('./') ? p.slice(2) : p);
const walkOrder = (a: { parts: string[]; no: number }, b: { parts: string[]; no: number }) =>
  compareParts(a.parts, b.parts) || a.no - b.no;

interface Keyed {
  rel: string;
  parts: string[];
  no: number;
  entry: string;
}

/** rg's output as the tool's entries, each with its file and line, in the walk's order. */
function keyedEntries(out: Buffer, q: Query): Keyed[] {
  const mode = q.mode ?? 'content';
  const text = out.toString('utf8');
  const records = (mode === 'files_only' ? text.split('\0') : text.split('\n'))
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => isEntry(r, mode));
  const keyed = records.map((r): Keyed => {
    const cut = r.indexOf('\0');
    const rel = strip(cut === -1 ? r : r.slice(0, cut));
    const rest = cut === -1 ? '' : r.slice(cut + 1);
    const parts = rel.split('/');
    if (mode === 'files_only') return { rel, parts, no: 0, entry: rel };
    if (mode === 'count') return { rel, parts, no: 0, entry: `${rel}:${rest}` };
    const m = /^(\d+)([:-])(.*)$/s.exec(rest);
    if (!m) throw new Error(`rg printed a line the bench cannot read: ${JSON.stringify(r.slice(0, 120))}`);
    const line = m[3]!.endsWith('\r') ? m[3]!.slice(0, -1) : m[3]!;
    return { rel, parts, no: Number(m[1]), entry: `${rel}${m[2]}${m[1]}${m[2]}${clipLine(line)}` };
  });
  return keyed.sort(walkOrder);
}

/** rg's whole answer as the tool lists it: entries in the walk's order, each as the tool prints it. */
export function expectedEntries(out: Buffer, q: Query): string[] {
  return keyedEntries(out, q).map((k) => k.entry);
}

/**
 * The files whose first NUL lies past rg's first read of a file (64 KB): what rg's whole run prints for them depends
 * on its threads' history (each keeps one buffer for all its files, grown by the longest line it met; a grown buffer
 * reads the NUL at once and rg then prints nothing of the file), so the reference for them is rg run on each alone.
 */
export async function lateNulFiles(cwd: string): Promise<string[]> {
  // Every NUL of the first line holding one is printed, the first first: a file's first record is its first NUL.
  const first = new Map<string, number>();
  const args = ['--text', '--byte-offset', '--max-count', '1', '--only-matching', '--regexp', '\\x00'];
  await rgLines(cwd, args, (line) => {
    const cut = line.indexOf('\0');
    if (cut > 0 && !first.has(line.slice(0, cut)))
      first.set(line.slice(0, cut), Number.parseInt(line.slice(cut + 1), 10));
  });
  return [...first].filter(([, at]) => at >= 64 * 1024).map(([path]) => path);
}

/**
 * rg's whole answer for `q` as the tool lists it (`expectedEntries`), as its whole run gives it (`whole`) and with the
 * entries of the `late` files (`lateNulFiles`) taken from rg run on each of them alone (`alone`), by lines (a named
 * file's `-c` and `-l` take it whole): its lines before the NUL's part; in count mode nothing for a file rg stopped
 * at a NUL in, as its walk does. Either is rg's answer.
 */
export async function expectedAnswers(
  cwd: string,
  q: Query,
  late: readonly string[],
): Promise<{ alone: string[]; whole: string[] }> {
  const whole = keyedEntries((await rgRun(cwd, peerArgs(q), true)).out, q);
  const entries = whole.map((k) => k.entry);
  if (late.length === 0) return { alone: entries, whole: entries };
  const lateSet = new Set(late.map(strip));
  const mode = q.mode ?? 'content';
  const keyed = whole.filter((k) => !lateSet.has(k.rel));
  const byLines: Query = { ...q, mode: 'content', ...(mode === 'content' ? {} : { context: 0 }) };
  for (const file of late) {
    const out = (await rgRun(cwd, ['--with-filename', '--no-mmap', ...peerArgs(byLines)], true, [file])).out;
    const lines = keyedEntries(out, byLines);
    const matches = lines.filter((k) => /^\d+:/.test(k.entry.slice(k.rel.length + 1)));
    const rel = strip(file);
    const parts = rel.split('/');
    if (mode === 'content') keyed.push(...lines);
    else if (mode === 'files_only' && matches.length > 0) keyed.push({ rel, parts, no: 0, entry: rel });
    else if (mode === 'count' && matches.length > 0 && !/binary file matches \(found/.test(out.toString('utf8')))
      keyed.push({ rel, parts, no: 0, entry: `${rel}:${matches.length}` });
  }
  return { alone: keyed.sort(walkOrder).map((k) => k.entry), whole: entries };
}

/**
 * Ours against rg's first entries in the tool's order: the same entries (path, line, text; duplicates count), in
 * the same order, so a page cut in the wrong place or a wrong order inside it shows. Returns what differs first.
 */
export function compareEntries(ours: string[], expected: string[]): string | null {
  const theirs = expected.slice(0, ours.length);
  if (ours.length !== theirs.length) return `${ours.length} entries, rg has ${expected.length}`;
  const i = ours.findIndex((e, k) => e !== theirs[k]);
  return i === -1
    ? null
    : `entry ${i + 1}: ${JSON.stringify(ours[i]).slice(0, 80)} where rg has ${JSON.stringify(theirs[i]).slice(0, 80)}`;
}

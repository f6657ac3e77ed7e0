/**
 * The ripgrep engine of `grep_files`. One `rg` process searches in parallel, as `rg` on the command line does; the
 * policy goes in as flags (the SKIP_DIRS and `secrets` globs, no symlink following, `--hidden --no-ignore` like the
 * JS engine, `--max-filesize`). Its output is read as a stream, and rg is stopped as soon as more is not needed:
 * - While the stream stays small (fewer than SWITCH_FACTOR × the entries the page needs, and under
 *   STREAM_BUDGET_BYTES of content), it is read to the end and sorted into the walk's order: that is the answer.
 * - Past that (and once the stream is RACE_AFTER_MS old), the answer is a cut page of a common pattern, and a
 *   second way starts beside the stream: the policy facade's walk lists files lazily, in the walk's own order, and
 *   rg searches them batch by batch (64, 256, … files, each batch in parallel) until the page is full. The first way to finish gives the answer, and the other
 *   is stopped: on a small tree the stream ends first, on a big one a page of a common word costs a few files, not
 *   a full run. Which way wins depends on timing; the answer does not (both are the walk's first entries).
 * Files come back in the walk's order (compareRel) with their matching lines, filtered by `accept` before they count
 * towards the page (guarded hard links, protected subtrees), so a page is never short because of what was left out.
 * Lines are read at most PREVIEW_BYTES long (`--max-columns-preview`): enough for the 500 characters a result shows.
 * Files named on rg's command line are searched even when binary or large, so the batches pass only files under
 * MAX_GREP_FILE_BYTES, and read lines (`-n`) in every mode: rg then reports a binary file instead of its lines (a
 * named file's `-c` and `-l` would count and list it whole). Every run is `--no-mmap`, so a named file is read in
 * fills as a walked one is (a memory map is searched past a late NUL), and ripgrep's binary rule holds alike
 * (grep-binary.ts): the lines before a late NUL, then a notice (`path: … binary file …`), which is not a line; a
 * file with one is left out of a count.
 * Returns null when the caller should use the JS engine (rg cannot start, or refuses the pattern: look-around and
 * back-references are not in Rust's regex syntax; or a path holds a line break, which tears rg's lines).
 */
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { sizeAt, SKIP_DIRS, walk } from '../_policy/fs';
import { SECRETS_DIR } from '../_policy/guard';
import { compareParts, MAX_GREP_FILE_BYTES, type FileMatches, type GrepQuery } from './grep-engines';
import { globMatcher, MAX_MATCH_LINE_CHARS } from './search-engine';

/** Content output read in one stream before a cut page switches to "walk in order, search batch by batch". */
export const STREAM_BUDGET_BYTES = 1024 * 1024;
/** Entries seen in the stream, as a multiple of what the page needs, before it switches the same way. */
const SWITCH_FACTOR = 4;
/** A cut page's stream younger than this runs alone: on a small tree it ends first, and a second rg only competes. */
const RACE_AFTER_MS = 40;
/** Content output past this stops the stream at once, whoever would have finished first (memory). */
const HARD_STREAM_BYTES = 16 * 1024 * 1024;
/** A shown line is at most MAX_MATCH_LINE_CHARS UTF-16 units, which is at most 3 bytes each in UTF-8. */
const PREVIEW_BYTES = MAX_MATCH_LINE_CHARS * 3 + 1;
/** Files in the first batch of a content page; each next batch is GROWTH times bigger, up to MAX_BATCH. */
const FIRST_BATCH = 64;
const GROWTH = 4;
const MAX_BATCH = 4096;

export interface RipgrepWant {
  /** Entries the page needs, one more than it shows (so "more exist" is known): lines in content mode, else files. */
  entries: number;
  /** Whether a hit's file may be shown (real path); files refused here never count towards the page. */
  accept?: (path: string) => boolean;
  /** Content output read in one stream before switching (default STREAM_BUDGET_BYTES; tests pass 0). */
  streamBudgetBytes?: number;
  /** Subtrees the walk does not enter (protected paths); ripgrep's own hits there are dropped by `accept`. */
  skip?: (path: string) => boolean;
}

type Outcome = { kind: 'done'; stderr: string; code: number | null } | { kind: 'stopped' } | { kind: 'unusable' };

/**
 * Runs rg and hands each record (a line, or a NUL-ended path for `-l`) to `onRecord`; `false` stops rg at once.
 * Resolves when rg has exited; 'unusable' when it could not start or refused the pattern.
 */
function runRg(
  rgPath: string,
  args: readonly string[],
  cwd: string | undefined,
  signal: AbortSignal,
  separator: '\n' | '\0',
  onRecord: (record: string, bytesSoFar: number) => boolean,
  control?: { stop?: () => void },
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: {} });
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let bytes = 0;
    let stopped = false;
    let stderr = '';
    const stop = () => {
      if (stopped) return;
      stopped = true;
      child.kill('SIGKILL');
    };
    if (control) control.stop = stop;
    const onAbort = () => stop();
    signal.addEventListener('abort', onAbort, { once: true });
    const feed = (text: string) => {
      let from = 0;
      for (let at = text.indexOf(separator); at !== -1 && !stopped; at = text.indexOf(separator, from)) {
        if (!onRecord(text.slice(from, at), bytes)) stop();
        from = at + 1;
      }
      rest = text.slice(from);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (stopped) return;
      bytes += chunk.length;
      feed(rest + decoder.write(chunk));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', () => {
      signal.removeEventListener('abort', onAbort);
      resolve({ kind: 'unusable' });
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) return reject(signal.reason);
      if (stopped) return resolve({ kind: 'stopped' });
      const tail = rest + decoder.end();
      if (tail) onRecord(tail, bytes);
      if (code === 2 && /regex parse error|error parsing regex|look-around|backreference/i.test(stderr))
        return resolve({ kind: 'unusable' });
      resolve({ kind: 'done', stderr, code });
    });
  });
}

function baseArgs(q: GrepQuery): string[] {
  const args = [
    '--no-config',
    '--hidden',
    '--no-ignore',
    '--no-messages',
    '--null',
    '--with-filename',
    '--color',
    'never',
    '--max-filesize',
    String(MAX_GREP_FILE_BYTES),
    '--no-mmap',
  ];
  if (q.caseInsensitive) args.push('--ignore-case');
  for (const dir of SKIP_DIRS) args.push('--iglob', `!${dir}/`);
  args.push('--iglob', `!${SECRETS_DIR}`); // the walk skips a *file* named secrets too
  if (q.glob) args.push('--glob', q.glob);
  return args;
}

const lineArgs = (perFile: number, context = 0) => [
  '--line-number',
  '--no-heading',
  '--max-count',
  String(perFile),
  '--max-columns',
  String(PREVIEW_BYTES),
  '--max-columns-preview',
  ...(context > 0 ? ['--context', String(context)] : []),
];

/**
 * rg's line after the lines of a file it stopped reading at a NUL (grep-binary.ts): `WARNING: …` for a walked file,
 * `binary file matches …` for a named one. Not a line of the file.
 */
const BINARY_NOTICE =
  /: (?:WARNING: stopped searching binary file after match|binary file matches) \(found "\\0" byte around offset \d+\)$/;

/** The path a binary notice is about (as rg printed it), or null when `record` is not one. */
export function noticePath(record: string): string | null {
  const m = BINARY_NOTICE.exec(record);
  return m && record.indexOf('\0') === -1 ? record.slice(0, m.index) : null;
}

/** Lines read for a files or count answer: one column is enough (`-l` and `-c` would take a named file whole). */
const countLineArgs = (mode: GrepQuery['mode']) => [
  '--line-number',
  '--no-heading',
  '--max-columns',
  '1',
  ...(mode === 'files' ? ['--max-count', '1'] : []),
];

interface Collected {
  matches: number[];
  texts: string[];
  /** Matching lines counted by rg (`--count`), when they were not listed. */
  count?: number;
  /** Context lines by number (`--context`). */
  context?: Map<number, string>;
}

/**
 * Parses a `path\0N:text` (match) or `path\0N-text` (context) record into `byFile`; returns whether it was a match.
 * Other records (`--` between hunks, a binary file's notice) are not lines and are passed over.
 */
function addLineRecord(record: string, byFile: Map<string, Collected>, relOf: (printed: string) => string): boolean {
  const cut = record.indexOf('\0');
  if (cut <= 0) return false;
  let i = cut + 1;
  while (i < record.length && record.charCodeAt(i) >= 48 && record.charCodeAt(i) <= 57) i++;
  const sep = record[i];
  if (i === cut + 1 || (sep !== ':' && sep !== '-')) return false;
  const no = Number(record.slice(cut + 1, i)) - 1;
  const rel = relOf(record.slice(0, cut));
  let file = byFile.get(rel);
  if (!file) byFile.set(rel, (file = { matches: [], texts: [] }));
  const raw = record.slice(i + 1);
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (sep === '-') {
    (file.context ??= new Map()).set(no, text);
    return false;
  }
  file.matches.push(no);
  file.texts.push(text);
  return true;
}

function inWalkOrder<T>(entries: Iterable<[string, T]>): [string, T][] {
  // Split each path once, not once per comparison (thousands of files).
  const keyed = [...entries].map(([rel, value]) => ({ parts: rel.split('/'), rel, value }));
  keyed.sort((a, b) => compareParts(a.parts, b.parts));
  return keyed.map(({ rel, value }) => [rel, value]);
}

export async function ripgrepEngine(
  rgPath: string,
  root: string,
  isFile: boolean,
  q: GrepQuery,
  signal: AbortSignal,
  want: RipgrepWant,
): Promise<FileMatches[] | null> {
  const base = baseArgs(q);
  const target = isFile ? root : '.';
  const cwd = isFile ? undefined : root;
  const fileName = root.slice(root.lastIndexOf('/') + 1);
  const relOf = (printed: string) => (isFile ? fileName : printed.startsWith('./') ? printed.slice(2) : printed);
  const pathOf = (rel: string) => (isFile ? root : `${root}/${rel}`);
  const accepted = (rel: string) => !want.accept || want.accept(pathOf(rel));
  const pattern = ['--regexp', q.pattern];
  const budget = want.streamBudgetBytes ?? STREAM_BUDGET_BYTES;
  const isCut = (seen: number, bytes: number) =>
    !isFile && (seen >= SWITCH_FACTOR * want.entries || (seen >= want.entries && bytes > budget));
  const batches = (s: AbortSignal) => inOrderBatches(rgPath, root, q, s, want, base, pathOf, accepted);

  // One parallel stream. Once it is clearly a cut page, the in-order batches start beside it and the first to
  // finish gives the answer: on a small tree the stream, on a big one the batches (then rg is stopped).
  const byFile = new Map<string, Collected>();
  let seen = 0;
  const started = performance.now();
  const stream: { stop?: () => void } = {};
  const raceAbort = new AbortController();
  // Set inside the stream's callback, so kept in an object (a plain `let` would be narrowed to null below).
  const race: { answer: Promise<FileMatches[] | null> | null } = { answer: null };
  let raceWon = false;
  // rg's lines are split at line breaks, so a path holding one tears its line: `./notes\nREADME.md\0 1:text` would
  // read as a hit in README.md. Every path rg prints here starts with the target ('./' or the file), and a line of
  // its own is only the `--` between hunks or a binary notice right after the lines of the file it names (rg writes
  // each file's output at once): anything else is a torn line, and then the JS engine answers (docs/tools.md "Names
  // in results").
  const pathStart = isFile ? `${target}\0` : './';
  let lastPrinted: string | null = null; // the path of the last line read
  const noticed = new Set<string>(); // files rg stopped reading at a NUL (their lines are a part)
  const isTorn = (record: string) => {
    const cut = record.indexOf('\0');
    if (cut !== -1) {
      lastPrinted = record.slice(0, cut);
      return !record.startsWith(pathStart);
    }
    if (record === '--') return false;
    const about = noticePath(record);
    if (about === null || about !== lastPrinted) return true;
    noticed.add(relOf(about));
    return false;
  };
  let torn = false;
  // A named file (isFile) is read by lines in every mode: its `-l` and `-c` would take it whole, past a late NUL.
  const byLines = q.mode === 'content' || isFile;
  const modeArgs =
    q.mode === 'content'
      ? lineArgs(want.entries, q.context)
      : isFile
        ? countLineArgs(q.mode)
        : q.mode === 'files'
          ? ['--files-with-matches']
          : ['--count'];
  const streamed = await runRg(
    rgPath,
    [...base, ...modeArgs, ...pattern, '--', target],
    cwd,
    signal,
    byLines || q.mode === 'count' ? '\n' : '\0',
    (record, bytes) => {
      if ((byLines || q.mode === 'count') && isTorn(record)) {
        torn = true;
        return false;
      }
      if (byLines) {
        if (addLineRecord(record, byFile, relOf)) seen++;
      } else {
        const cut = q.mode === 'files' ? -1 : record.indexOf('\0');
        const rel = relOf((cut === -1 ? record : record.slice(0, cut)).replace(/^\n/, ''));
        if (rel) byFile.set(rel, { matches: [], texts: [], count: cut === -1 ? 1 : Number(record.slice(cut + 1)) });
        seen++;
      }
      if (!isCut(seen, bytes)) return true;
      if (budget === 0 || bytes > HARD_STREAM_BYTES) return false; // forced (tests), or too much to keep: stop now
      if (!race.answer && performance.now() - started >= RACE_AFTER_MS) {
        race.answer = batches(AbortSignal.any([signal, raceAbort.signal])).then((answer) => {
          raceWon = answer !== null;
          if (raceWon) stream.stop?.();
          return answer;
        });
        race.answer.catch(() => null); // called off or stopped: never an unhandled rejection
      }
      return true;
    },
    stream,
  );
  if (streamed.kind === 'unusable') return null;
  if (torn) {
    raceAbort.abort();
    await race.answer?.catch(() => null);
    return null;
  }
  if (streamed.kind === 'stopped') return race.answer ?? batches(signal);
  // The stream finished first: its answer stands, the batches are called off.
  if (race.answer && !raceWon) {
    raceAbort.abort();
    await race.answer.catch(() => null);
  }
  const out: FileMatches[] = [];
  for (const [rel, f] of inWalkOrder(byFile)) {
    if (q.mode === 'count' && noticed.has(rel)) continue; // rg counts no file it stopped at a NUL in
    if (q.mode !== 'content' && out.length >= want.entries) break;
    if (q.mode === 'content' || accepted(rel)) out.push(asMatches(rel, f, q, pathOf));
  }
  return out;
}

function asMatches(rel: string, f: Collected, q: GrepQuery, pathOf: (rel: string) => string): FileMatches {
  if (q.mode === 'content') {
    // With context asked for, rg printed every context line the file has, so the lines are all here even when it
    // printed none (a match alone on its file's only line: a minified bundle). Without this map the tool would read
    // and decode the whole file again for the context it already has (node_modules `-C2`: 40-50 ms a search).
    const lineTexts = f.context || (q.context ?? 0) > 0 ? new Map(f.context) : undefined;
    if (lineTexts) f.matches.forEach((no, i) => lineTexts.set(no, f.texts[i]!));
    return { rel, path: pathOf(rel), matches: f.matches, matchTexts: f.texts, ...(lineTexts ? { lineTexts } : {}) };
  }
  return { rel, path: pathOf(rel), matches: [], count: f.count ?? f.matches.length };
}

/** The page in the walk's order: files listed lazily by the walk, searched by rg batch by batch until it is full. */
async function inOrderBatches(
  rgPath: string,
  root: string,
  q: GrepQuery,
  signal: AbortSignal,
  want: RipgrepWant,
  base: readonly string[],
  pathOf: (rel: string) => string,
  accepted: (rel: string) => boolean,
): Promise<FileMatches[] | null> {
  const wanted = q.glob ? globMatcher(q.glob) : null;
  const files = walk(root, { recursive: true, noFollow: true, ...(want.skip ? { skip: want.skip } : {}) });
  const out: FileMatches[] = [];
  let found = 0; // entries: lines in content mode, files otherwise
  // A files/count page needs at least `entries` files: start there; a content page often needs only a few files.
  let batch = q.mode === 'content' ? FIRST_BATCH : Math.min(MAX_BATCH, 2 * want.entries);
  let isWalkDone = false;
  while (!isWalkDone && found < want.entries) {
    const chunk: string[] = [];
    while (chunk.length < batch) {
      const next = files.next();
      if (next.done) {
        isWalkDone = true;
        break;
      }
      const e = next.value;
      if (e.rel.includes('\n')) return null; // rg's line would be torn (see isTorn): the JS engine answers
      if (e.kind !== 'file' || e.isBlocked || e.isSymlink || (wanted && !wanted(e.rel)) || !accepted(e.rel)) continue;
      const size = sizeAt(e.path);
      if (size !== null && size <= MAX_GREP_FILE_BYTES) chunk.push(e.rel);
    }
    batch = Math.min(MAX_BATCH, batch * GROWTH);
    if (chunk.length === 0) continue;
    signal.throwIfAborted();
    const lines = q.mode === 'content' ? lineArgs(want.entries - found, q.context) : countLineArgs(q.mode);
    const got = new Map<string, Collected>();
    const noticed = new Set<string>();
    const args = [...base, ...lines, '--regexp', q.pattern, '--', ...chunk.map((rel) => `./${rel}`)];
    const relOf = (p: string) => (p.startsWith('./') ? p.slice(2) : p);
    const outcome = await runRg(rgPath, args, root, signal, '\n', (record) => {
      if (addLineRecord(record, got, relOf)) return true;
      const about = noticePath(record); // the walk gave no name with a line break (above): a notice is one
      if (about !== null) noticed.add(relOf(about));
      return true;
    });
    if (outcome.kind === 'unusable') return null;
    for (const rel of chunk) {
      const f = got.get(rel);
      if (!f || found >= want.entries) continue;
      if (q.mode === 'count' && noticed.has(rel)) continue; // rg counts no file it stopped at a NUL in
      out.push(asMatches(rel, f, q, pathOf));
      found += q.mode === 'content' ? f.matches.length : 1;
    }
  }
  return out;
}

/**
 * The ripgrep engine of `grep_files`. One `rg` process searches in parallel, as `rg` on the command line does; the
 * policy goes in as flags (the SKIP_DIRS and `secrets` globs, no symlink following, `--hidden --no-ignore` like the
 * JS engine, `--max-filesize`). Its output is read as a stream, and the process is stopped as soon as what was read
 * is enough, so a page of a common word never costs a full run of rg:
 * - `files_only` reads `rg -l` (one path per file), `count` reads `rg -c` (one line per file): small, read whole;
 * - `content` first streams `rg -n`, at most `need` lines per file. When everything comes in under
 *   STREAM_BUDGET_BYTES, that is the answer. Past it, and with more lines than the page needs, rg is stopped and
 *   the page is made in two steps: `rg -l` lists the matching files (stops at a file's first match; small), and
 *   `rg -n` runs again on just the first of those files, in walk order, batch by batch, until the page is full.
 * Files come back in the walk's order (compareRel) with their matching lines, filtered by `accept` before they count
 * towards the page (guarded hard links, protected subtrees), so a page is never short because of what was left out.
 * Lines are read at most PREVIEW_BYTES long (`--max-columns-preview`): enough for the 500 characters a result shows.
 * Returns null when the caller should use the JS engine (rg cannot start, or refuses the pattern: look-around and
 * back-references are not in Rust's regex syntax).
 */
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { SKIP_DIRS } from '../_policy/fs';
import { SECRETS_DIR } from '../_policy/guard';
import { compareParts, MAX_GREP_FILE_BYTES, type FileMatches, type GrepQuery } from './grep-engines';
import { MAX_MATCH_LINE_CHARS } from './search-engine';

/** Content output read in one stream before a cut page switches to "list the files, then search the first ones". */
export const STREAM_BUDGET_BYTES = 1024 * 1024;
/** A shown line is at most MAX_MATCH_LINE_CHARS UTF-16 units, which is at most 3 bytes each in UTF-8. */
const PREVIEW_BYTES = MAX_MATCH_LINE_CHARS * 3 + 1;
const FIRST_BATCH = 16;
const MAX_BATCH = 1024;

export interface RipgrepWant {
  /** Entries the page needs, one more than it shows (so "more exist" is known): lines in content mode, else files. */
  entries: number;
  /** Whether a hit's file may be shown (real path); files refused here never count towards the page. */
  accept?: (path: string) => boolean;
  /** Content output read in one stream before switching (default STREAM_BUDGET_BYTES; tests pass 0). */
  streamBudgetBytes?: number;
}

type Outcome = { kind: 'done'; stderr: string; code: number | null } | { kind: 'stopped' } | { kind: 'unusable' };

/**
 * Runs rg and hands each record (a line, or a NUL-ended path for `-l`) to `onRecord`; `false` stops rg at once.
 * Resolves when rg has exited; 'unusable' when it could not start or refused the pattern.
 */
function runRg(rgPath: string, args: readonly string[], cwd: string | undefined, signal: AbortSignal, separator: '\n' | '\0', onRecord: (record: string, bytesSoFar: number) => boolean): Promise<Outcome> {
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
      if (code === 2 && /regex parse error|error parsing regex|look-around|backreference/i.test(stderr)) return resolve({ kind: 'unusable' });
      resolve({ kind: 'done', stderr, code });
    });
  });
}

function baseArgs(q: GrepQuery): string[] {
  const args = ['--no-config', '--hidden', '--no-ignore', '--no-messages', '--null', '--with-filename', '--color', 'never', '--max-filesize', String(MAX_GREP_FILE_BYTES)];
  if (q.caseInsensitive) args.push('--ignore-case');
  for (const dir of SKIP_DIRS) args.push('--iglob', `!${dir}/`);
  args.push('--iglob', `!${SECRETS_DIR}`); // the walk skips a *file* named secrets too
  if (q.glob) args.push('--glob', q.glob);
  return args;
}

const lineArgs = (perFile: number) => ['--line-number', '--no-heading', '--max-count', String(perFile), '--max-columns', String(PREVIEW_BYTES), '--max-columns-preview'];

interface Collected {
  matches: number[];
  texts: string[];
}

/** Parses `path\0N:text` records into `byFile`; returns false on a record of another shape (a binary notice). */
function addLineRecord(record: string, byFile: Map<string, Collected>, relOf: (printed: string) => string): boolean {
  const cut = record.indexOf('\0');
  if (cut <= 0) return false;
  const rest = record.slice(cut + 1);
  const colon = rest.indexOf(':');
  const no = Number(rest.slice(0, colon));
  if (colon <= 0 || !Number.isInteger(no)) return false;
  const rel = relOf(record.slice(0, cut));
  let file = byFile.get(rel);
  if (!file) byFile.set(rel, (file = { matches: [], texts: [] }));
  file.matches.push(no - 1);
  const text = rest.slice(colon + 1);
  file.texts.push(text.endsWith('\r') ? text.slice(0, -1) : text);
  return true;
}

function inWalkOrder<T>(entries: Iterable<[string, T]>): [string, T][] {
  // Split each path once, not once per comparison (thousands of files).
  const keyed = [...entries].map(([rel, value]) => ({ parts: rel.split('/'), rel, value }));
  keyed.sort((a, b) => compareParts(a.parts, b.parts));
  return keyed.map(({ rel, value }) => [rel, value]);
}

export async function ripgrepEngine(rgPath: string, root: string, isFile: boolean, q: GrepQuery, signal: AbortSignal, want: RipgrepWant): Promise<FileMatches[] | null> {
  const base = baseArgs(q);
  const target = isFile ? root : '.';
  const cwd = isFile ? undefined : root;
  const fileName = root.slice(root.lastIndexOf('/') + 1);
  const relOf = (printed: string) => (isFile ? fileName : printed.startsWith('./') ? printed.slice(2) : printed);
  const pathOf = (rel: string) => (isFile ? root : `${root}/${rel}`);
  const accepted = (rel: string) => !want.accept || want.accept(pathOf(rel));
  const pattern = ['--regexp', q.pattern];

  if (q.mode === 'files' || q.mode === 'count') {
    const counts = new Map<string, number>();
    const args = q.mode === 'files' ? [...base, '--files-with-matches', ...pattern, '--', target] : [...base, '--count', ...pattern, '--', target];
    const outcome = await runRg(rgPath, args, cwd, signal, q.mode === 'files' ? '\0' : '\n', (record) => {
      if (q.mode === 'files') {
        const rel = relOf(record.replace(/^\n/, ''));
        if (rel) counts.set(rel, 1);
        return true;
      }
      const cut = record.indexOf('\0');
      if (cut > 0) counts.set(relOf(record.slice(0, cut)), Number(record.slice(cut + 1)));
      return true;
    });
    if (outcome.kind === 'unusable') return null;
    const out: FileMatches[] = [];
    for (const [rel, count] of inWalkOrder(counts)) {
      if (out.length >= want.entries) break;
      if (accepted(rel)) out.push({ rel, path: pathOf(rel), matches: [], count });
    }
    return out;
  }

  // Content: one stream while it stays small.
  const byFile = new Map<string, Collected>();
  const budget = want.streamBudgetBytes ?? STREAM_BUDGET_BYTES;
  let lines = 0;
  const streamed = await runRg(rgPath, [...base, ...lineArgs(want.entries), ...pattern, '--', target], cwd, signal, '\n', (record, bytes) => {
    if (addLineRecord(record, byFile, relOf)) lines++;
    return isFile || lines < want.entries || bytes <= budget;
  });
  if (streamed.kind === 'unusable') return null;
  const asMatches = (rel: string, f: Collected): FileMatches => ({ rel, path: pathOf(rel), matches: f.matches, matchTexts: f.texts });
  if (streamed.kind === 'done') return inWalkOrder(byFile).map(([rel, f]) => asMatches(rel, f));

  // Too much for one stream: list the matching files, then search the first ones in walk order until the page is full.
  const listed: string[] = [];
  const listing = await runRg(rgPath, [...base, '--files-with-matches', ...pattern, '--', target], cwd, signal, '\0', (record) => {
    const rel = relOf(record.replace(/^\n/, ''));
    if (rel) listed.push(rel);
    return true;
  });
  if (listing.kind === 'unusable') return null;
  const files = inWalkOrder(listed.map((rel) => [rel, null] as [string, null])).map(([rel]) => rel).filter(accepted);
  const out: FileMatches[] = [];
  let found = 0;
  let batch = FIRST_BATCH;
  for (let next = 0; next < files.length && found < want.entries; next += batch, batch = Math.min(MAX_BATCH, batch * 2)) {
    const chunk = files.slice(next, next + batch);
    const got = new Map<string, Collected>();
    const args = [...base, ...lineArgs(want.entries - found), ...pattern, '--', ...chunk.map((rel) => `./${rel}`)];
    const outcome = await runRg(rgPath, args, cwd, signal, '\n', (record) => (addLineRecord(record, got, relOf), true));
    if (outcome.kind === 'unusable') return null;
    for (const rel of chunk) {
      const f = got.get(rel);
      if (!f || found >= want.entries) continue;
      out.push(asMatches(rel, f));
      found += f.matches.length;
    }
  }
  return out;
}

/**
 * How grep_files runs ripgrep and reads what it prints (grep-ripgrep.ts streams one run over the tree,
 * grep-rg-batches.ts runs it over the walk's entries in order): the policy as flags (the SKIP_DIRS and `secrets`
 * globs, no symlink followed, `--hidden --no-ignore` like the JS engine, `--max-filesize`, `--no-mmap` so that a
 * named file is read in fills as a walked one is, grep-binary.ts), rg's output read as a stream and split into
 * records, and a record's path, line number and text. rg is started through the spawner (rg-spawner.ts: a fork of
 * the app costs tens of milliseconds at its size).
 */
import { StringDecoder } from 'node:string_decoder';
import { SKIP_DIRS } from '../_policy/fs';
import { SECRETS_DIR } from '../_policy/guard';
import { compareParts, MAX_GREP_FILE_BYTES, type FileMatches, type GrepQuery } from './grep-engines';
import { startRg } from './rg-spawner';
import { MAX_MATCH_LINE_CHARS } from './search-engine';

/** A shown line is at most MAX_MATCH_LINE_CHARS UTF-16 units, which is at most 3 bytes each in UTF-8. */
const PREVIEW_BYTES = MAX_MATCH_LINE_CHARS * 3 + 1;

export interface RipgrepWant {
  /** Entries the page needs, one more than it shows (so "more exist" is known): lines in content mode, else files. */
  entries: number;
  /**
   * Whether a hit's file may be shown (real path); files refused here never count towards the page. `isLinkJudged`: the
   * hit was read and confirmed on its descriptor, hard link included (the JS engine's `confirmed`), so its path's
   * hard-link check is not asked again.
   */
  accept?: (path: string, isLinkJudged?: boolean) => boolean;
  /** Content output read in one stream before switching (default STREAM_BUDGET_BYTES; tests pass 0). */
  streamBudgetBytes?: number;
  /** Subtrees the walk does not enter (protected paths); ripgrep's own hits there are dropped by `accept`. */
  skip?: (path: string) => boolean;
  /**
   * Content mode, one stream over the tree: each file rg has finished printing, at most `entries` of them, as it
   * finishes (`done`), for work that can start while rg reads on; `reopened` when more lines of one come later.
   */
  early?: { done: (hit: FileMatches) => void; reopened: (path: string) => void };
  /**
   * Each file of a page searched in the walk's order (grep-rg-batches.ts) as soon as it is part of the page, while rg
   * reads on: the same work as `early.done`, for files that are all shown.
   */
  inOrder?: (hit: FileMatches) => void;
  /** A page: once the stream shows more hits than it needs, it is stopped and the in-order batches make the page. */
  batchesAtCut?: boolean;
  /**
   * With `batchesAtCut`: the in-order batches the caller already started (grep-ripgrep.ts `streamBesideFirstBatch`),
   * let go on past their first batch and awaited at the cut, instead of new ones from the start.
   */
  atCut?: () => Promise<FileMatches[] | null>;
}

export type Outcome =
  | { kind: 'done'; stderr: string; code: number | null }
  | { kind: 'stopped' }
  | { kind: 'unusable' };

/**
 * Runs rg and hands each record (a line, or a NUL-ended path for `-l`) to `onRecord`; `false` stops rg at once.
 * Resolves when rg has exited; 'unusable' when it could not start or refused the pattern.
 */
export function runRg(
  rgPath: string,
  args: readonly string[],
  cwd: string | undefined,
  signal: AbortSignal,
  separator: '\n' | '\0',
  onRecord: (record: string, bytesSoFar: number) => boolean,
  control?: { stop?: () => void },
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const decoder = new StringDecoder('utf8');
    let rest = '';
    let bytes = 0;
    let stopped = false;
    const feed = (text: string) => {
      let from = 0;
      for (let at = text.indexOf(separator); at !== -1 && !stopped; at = text.indexOf(separator, from)) {
        if (!onRecord(text.slice(from, at), bytes)) stop();
        from = at + 1;
      }
      rest = text.slice(from);
    };
    const onAbort = () => stop();
    const child = startRg(rgPath, args, cwd, {
      onData: (chunk) => {
        if (stopped) return;
        bytes += chunk.length;
        feed(rest + decoder.write(chunk));
      },
      onExit: (exit) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) return reject(signal.reason);
        if (exit === 'unusable') return resolve({ kind: 'unusable' });
        if (stopped) return resolve({ kind: 'stopped' });
        const tail = rest + decoder.end();
        if (tail) onRecord(tail, bytes);
        if (exit.code === 2 && /regex parse error|error parsing regex|look-around|backreference/i.test(exit.stderr))
          return resolve({ kind: 'unusable' });
        resolve({ kind: 'done', stderr: exit.stderr, code: exit.code });
      },
    });
    function stop() {
      if (stopped) return;
      stopped = true;
      child.kill();
    }
    if (control) control.stop = stop;
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) stop();
  });
}

export function baseArgs(q: GrepQuery): string[] {
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

export const lineArgs = (perFile: number, context = 0) => [
  '--line-number',
  '--byte-offset',
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
export const countLineArgs = (mode: GrepQuery['mode']) => [
  '--line-number',
  '--byte-offset',
  '--no-heading',
  '--max-columns',
  '1',
  ...(mode === 'files' ? ['--max-count', '1'] : []),
];

export interface Collected {
  matches: number[];
  texts: string[];
  /** Matching lines counted by rg (`--count`), when they were not listed. */
  count?: number;
  /** Context lines by number (`--context`). */
  context?: Map<number, string>;
  /** Where each printed line (match or context) starts in the file, in bytes (`--byte-offset`), by number. */
  offsets: Map<number, number>;
}

/**
 * Parses a `path\0N:B:text` (match) or `path\0N-B-text` (context) record (N the line's number, B where it starts in
 * bytes: lineArgs' `--byte-offset`) into `byFile`; returns whether it was a match. Other records (`--` between hunks,
 * a binary file's notice) are not lines and are passed over.
 */
export function addLineRecord(
  record: string,
  byFile: Map<string, Collected>,
  relOf: (printed: string) => string,
): boolean {
  const cut = record.indexOf('\0');
  if (cut <= 0) return false;
  let i = cut + 1;
  while (i < record.length && record.charCodeAt(i) >= 48 && record.charCodeAt(i) <= 57) i++;
  const sep = record[i];
  if (i === cut + 1 || (sep !== ':' && sep !== '-')) return false;
  const no = Number(record.slice(cut + 1, i)) - 1;
  let j = i + 1;
  while (j < record.length && record.charCodeAt(j) >= 48 && record.charCodeAt(j) <= 57) j++;
  if (j === i + 1 || record[j] !== sep) return false;
  const rel = relOf(record.slice(0, cut));
  let file = byFile.get(rel);
  if (!file) byFile.set(rel, (file = { matches: [], texts: [], offsets: new Map() }));
  file.offsets.set(no, Number(record.slice(i + 1, j)));
  const raw = record.slice(j + 1);
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (sep === '-') {
    (file.context ??= new Map()).set(no, text);
    return false;
  }
  file.matches.push(no);
  file.texts.push(text);
  return true;
}

export function inWalkOrder<T>(entries: Iterable<[string, T]>): [string, T][] {
  // Split each path once, not once per comparison (thousands of files).
  const keyed = [...entries].map(([rel, value]) => ({ parts: rel.split('/'), rel, value }));
  keyed.sort((a, b) => compareParts(a.parts, b.parts));
  return keyed.map(({ rel, value }) => [rel, value]);
}

/** A file's lines as the engines give them: with its context lines (content), or its count. */
export function asMatches(rel: string, f: Collected, q: GrepQuery, pathOf: (rel: string) => string): FileMatches {
  if (q.mode === 'content') {
    // With context asked for, rg printed every context line the file has, so the lines are all here even when it
    // printed none (a match alone on its file's only line: a minified bundle). Without this map the tool would read
    // and decode the whole file again for the context it already has (node_modules `-C2`: 40-50 ms a search).
    const lineTexts = f.context || (q.context ?? 0) > 0 ? new Map(f.context) : undefined;
    if (lineTexts) f.matches.forEach((no, i) => lineTexts.set(no, f.texts[i]!));
    return {
      rel,
      path: pathOf(rel),
      matches: f.matches,
      matchTexts: f.texts,
      lineOffsets: f.offsets,
      ...(lineTexts ? { lineTexts } : {}),
    };
  }
  return { rel, path: pathOf(rel), matches: [], count: f.count ?? f.matches.length };
}

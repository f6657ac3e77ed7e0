/**
 * `grep_files`: search every text file under a folder for a pattern (docs/tools.md).
 * - `output_mode`: `content` (path:line:text, context lines path-line-text, hunks split by `--`), `files_only`
 *   (one path per file), `count` (path:count).
 * - `context_lines` 0–10; `offset` + `limit` paginate over result entries (matching lines in content mode,
 *   files otherwise); the footer says how to fetch the next page.
 * - Result paths are relative to the queried folder, like list_files; a name with a line break or another control
 *   character is shown quoted (shownPath), and a file whose name is not valid UTF-8 is left out (nothing opens it).
 * - Walks with the policy facade: SKIP_DIRS (incl. `secrets`), no directory symlink followed out of the root, loops
 *   end; binary files and files over MAX_GREP_FILE_BYTES are skipped, and a file that turns binary part-way is
 *   searched as far as ripgrep searches it (grep-binary.ts).
 * Engines: the JS engine (`grep-engines.ts`), which yields to the event loop every few milliseconds so a big tree
 * neither freezes the main process nor ignores a stop; and where a binary is found, ripgrep (`grep-ripgrep.ts`:
 * parallel, its output streamed and stopped once the page is full), started beside the JS engine's search of the
 * walk's first files when that does not answer at once (`grep-race.ts`, docs/architecture.md "Tools").
 * Both give the same results in the same order. Limits: `.gitignore` is not applied (hidden files are searched);
 * symlinks are not followed while searching.
 */
import { z } from 'zod';
import { shownPath } from '../../../../shared/shown-path';
import { TN } from '../../../../shared/tool-names';
import { defineTool } from '../define-tool';
import { doesNotExist, isGuardedHardLink, isUnopenableName, kindAt } from '../_policy/fs';
import { SearchReader } from '../../disk/search-reader';
import { guardRead } from '../_policy/guard';
import type { Tool } from '../tool';
import { label, leftOut, PATH_ALIASES, pathString, plural, searchLabel } from './common';
import { ripgrepExtent } from './grep-binary';
import { confirmRipgrepHit, linesAtOffsets, samePrintedLines } from './grep-confirm';
import {
  type FileMatches,
  findRipgrep,
  MAX_GREP_FILE_BYTES,
  type GrepQuery,
  type JsEngineOptions,
} from './grep-engines';
import { grepPool, type GrepPool } from './grep-pool';
import { engineResults, JS_PREFIX_MS } from './grep-race';
import { BATCHED_PAGE_ENTRIES } from './grep-race-page';
import type { RipgrepWant } from './grep-ripgrep';
import { clipLine, compileMatcher, MAX_PATTERN_CHARS, hunks, lineIndex, type LineSource } from './search-engine';
import { globMatcher } from './grep-glob';

export const DEFAULT_GREP_LIMIT = 100;
export const MAX_GREP_LIMIT = 5000;
/** Where ripgrep is looked for when none is injected (a packaged app would pass its bundled binary). */
export const RIPGREP_CANDIDATES = ['/usr/bin/rg', '/usr/local/bin/rg', '/opt/homebrew/bin/rg'];

const input = z.object({
  pattern: z
    .string()
    .min(1)
    .max(MAX_PATTERN_CHARS)
    .describe('Regular expression (a plain word works too), matched per line.'),
  path: pathString()
    .default('.')
    .describe('Folder (or file) to search; relative to the working directory. Default: the working directory.'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only files matching this glob, e.g. "*.ts" (file name) or "src/**/*.py" (path).'),
  case_insensitive: z.boolean().default(false).describe('Ignore letter case.'),
  output_mode: z
    .enum(['content', 'files_only', 'count'])
    .default('content')
    .describe('content: matching lines; files_only: file paths; count: matches per file.'),
  context_lines: z.coerce
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe('Lines of context around each match (content mode, 0–10).'),
  offset: z.coerce.number().int().min(0).default(0).describe('Skip this many result entries (for the next page).'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_GREP_LIMIT)
    .default(DEFAULT_GREP_LIMIT)
    .describe(`At most this many entries (default ${DEFAULT_GREP_LIMIT}).`),
});

export interface GrepFilesDeps {
  /** ripgrep binary; `null` forces the JS engine; absent = look in RIPGREP_CANDIDATES. */
  ripgrepPath?: string | null;
  /** How much ripgrep content output one stream may read before a cut page lists files first (tests pass 0). */
  streamBudgetBytes?: number;
  /** The JS engine's worker threads (default: the shared pool; null = this thread only). */
  pool?: GrepPool | null;
  /** How long the JS engine searches alone before the pool helps (tests pass 0). */
  poolAfterMs?: number;
  /** With ripgrep: how long the JS engine searches the walk's first files beside it (default JS_PREFIX_MS; 0: none). */
  jsPrefixMs?: number;
  /** With ripgrep: the JS engine stops after this many files too (tests: the answer joins the two engines). */
  jsPrefixFiles?: number;
}

/**
 * Whether a hit lies in what a rule or guard protects: the file or any folder between it and the root. ripgrep walks
 * by itself, so its hits are filtered here (the JS engine's walk never enters those folders); folders are judged once.
 */
function protectedHitFilter(root: string, skip: (path: string) => boolean): (path: string) => boolean {
  const folders = new Map<string, boolean>();
  const folderCovered = (dir: string): boolean => {
    if (dir === root || !dir.startsWith(`${root}/`)) return false;
    let covered = folders.get(dir);
    if (covered === undefined) {
      covered = folderCovered(dir.slice(0, dir.lastIndexOf('/'))) || skip(dir);
      folders.set(dir, covered);
    }
    return covered;
  };
  return (path) => folderCovered(path.slice(0, path.lastIndexOf('/'))) || skip(path);
}

export function createGrepFilesTool(deps: GrepFilesDeps = {}): Tool {
  const rgPath = deps.ripgrepPath === null ? null : (deps.ripgrepPath ?? findRipgrep(RIPGREP_CANDIDATES));
  const js: JsEngineOptions = {
    pool: deps.pool === undefined ? grepPool : deps.pool,
    ...(deps.poolAfterMs === undefined ? {} : { poolAfterMs: deps.poolAfterMs }),
  };
  return defineTool({
    name: TN.GREP_FILES,
    card: 'folder_hits',
    description:
      'Search the files under a folder for a regular expression. output_mode content (default) returns "path:line:text", ' +
      'files_only the matching paths, count the matches per file; paths are relative to the searched folder. Paginate ' +
      'with offset/limit. Skips .git, node_modules, secrets and binary files. Use this instead of grep/rg in execute_cmd.',
    input,
    kind: 'read',
    category: 'filesystem',
    isIdempotent: true,
    aliases: { ...PATH_ALIASES, query: 'pattern', regex: 'pattern', include: 'glob', mode: 'output_mode' },
    describe: (a, length) =>
      a.path === '.' ? label(TN.GREP_FILES, a.pattern, length) : searchLabel(TN.GREP_FILES, a.pattern, a.path, length),
    async executeAsync(a, ctx, signal) {
      compileMatcher(a.pattern, a.case_insensitive);
      if (a.glob) globMatcher(a.glob); // a bad glob is a sentence for the model, before either engine starts
      const g = guardRead(a.path, ctx);
      const kind = kindAt(g.real);
      if (kind !== 'dir' && kind !== 'file')
        return {
          kind: 'failed',
          error:
            kind === null
              ? doesNotExist(g, 'Pass a folder to search.')
              : `${g.display} is not a folder or a regular file. Pass a folder to search.`,
        };

      const entries: string[] = [];
      let total = 0; // entries seen so far (all pages)
      let hasMore = false;
      const end = a.offset + a.limit;
      const query: GrepQuery = {
        pattern: a.pattern,
        caseInsensitive: a.case_insensitive,
        glob: a.glob,
        mode: a.output_mode === 'content' ? 'content' : a.output_mode === 'files_only' ? 'files' : 'count',
        context: a.context_lines,
      };
      // A hard link to a guarded file is also refused on the descriptor of every read (disk/open.ts), so one swapped in
      // after `accept` looked at it is still never read.
      const guard = g.scope;
      const reader = new SearchReader(guard);
      const left = kind === 'dir' ? leftOut(g.real, ctx.protectedPaths) : null;
      const isProtected = left ? protectedHitFilter(g.real, left.skip) : null;
      // A guarded hard link is a second name of a secrets/ or data-folder file; a protected hit lies under what a rule
      // or guard covers. Both are left out before they count towards the page. Judged once per file (a stat each):
      // the engines and this loop ask about the same hits. A hit the JS engine confirmed was judged on the descriptor it
      // was read on, hard link included (disk/search-reader.ts): its path is not looked at again for that.
      const places = new Map<string, boolean>();
      const links = new Map<string, boolean>();
      const accept = (path: string, isLinkJudged = false) => {
        let ok = places.get(path);
        if (ok === undefined) places.set(path, (ok = !isProtected?.(path) && !isUnopenableName(path)));
        if (!ok || isLinkJudged) return ok;
        let isLink = links.get(path);
        if (isLink === undefined) links.set(path, (isLink = isGuardedHardLink(path, g)));
        return !isLink;
      };
      // A big answer's ripgrep hits are confirmed as rg finishes each file, while it reads on (not for a page: rg's
      // first files are not the walk's, and most of them would not be shown). A check stands only for the very lines it
      // read: the answer may come from another rg run (grep-ripgrep.ts: in-order batches), which read the file again.
      const early = new Map<string, { hit: FileMatches; isThere: boolean | 'undecided' }>();
      const confirmEarly: RipgrepWant['early'] = {
        done: (hit) => {
          // The hard link is judged on the descriptor the lines are checked on (`linesAtOffsets` confirms).
          if (hit.lineOffsets && hit.matchTexts && accept(hit.path, true))
            early.set(hit.path, { hit, isThere: linesAtOffsets(hit, hit.lineOffsets, reader) });
        },
        reopened: (path) => early.delete(path),
      };
      const want: RipgrepWant = {
        entries: end + 1,
        accept,
        ...(a.output_mode === 'content' && end + 1 > BATCHED_PAGE_ENTRIES ? { early: confirmEarly } : {}),
        ...(a.output_mode === 'content' ? { inOrder: confirmEarly.done } : {}),
        ...(left ? { skip: left.skip } : {}),
        ...(deps.streamBudgetBytes === undefined ? {} : { streamBudgetBytes: deps.streamBudgetBytes }),
      };
      const prefix = {
        ms: deps.jsPrefixMs ?? JS_PREFIX_MS,
        ...(deps.jsPrefixFiles === undefined ? {} : { files: deps.jsPrefixFiles }),
      };
      outer: for await (const hit of engineResults(
        rgPath,
        { ...js, guard },
        g.real,
        kind === 'file',
        query,
        signal,
        want,
        left?.skip,
        prefix,
      )) {
        // Every hit is confirmed on a descriptor, its hard link judged there, before it counts: the JS engine's when it
        // read it, ripgrep's just below (`isThere`, `confirmRipgrepHit`, or the early check of the same lines). The
        // path's own hard-link check (a stat) is left to the engines, whose counts it keeps whole.
        if (!accept(hit.path, true)) continue;
        // ripgrep's hits are read on paths a swapped folder can send into secrets/: only what a confirmed read of the
        // file agrees with is shown (docs/guards.md "One disk policy").
        let confirmedLines: LineSource | undefined;
        if (!hit.confirmed) {
          if (a.output_mode !== 'content') {
            if (!reader.isThere(hit.path)) continue;
          } else {
            const seen = early.get(hit.path);
            const known = seen && samePrintedLines(seen.hit, hit) ? seen.isThere : 'undecided';
            const checked = known === true ? null : known === false ? false : confirmRipgrepHit(hit, reader);
            if (checked === false) continue;
            if (checked) confirmedLines = checked;
          }
        }
        const name = shownPath(hit.rel);
        // A further file with matches after a full page: that is what "more exist" means.
        if (total >= end) {
          hasMore = true;
          break;
        }
        if (a.output_mode === 'files_only' || a.output_mode === 'count') {
          if (total >= a.offset)
            entries.push(a.output_mode === 'count' ? `${name}:${hit.count ?? hit.matches.length}` : name);
          total++;
          continue;
        }
        if (total + hit.matches.length <= a.offset) {
          total += hit.matches.length;
          continue;
        }
        const first = Math.max(0, a.offset - total);
        const room = end - (total + first);
        const picked = hit.matches.slice(first, first + room);
        total += first + picked.length;
        if (a.context_lines === 0 && hit.matchTexts) {
          // ripgrep already printed the lines: no need to read the file again.
          for (let i = 0; i < picked.length; i++)
            entries.push(`${name}:${picked[i]! + 1}:${clipLine(hit.matchTexts[first + i]!)}`);
        } else {
          // ripgrep printed the context with the matches; the JS engine has the text; else read the file again.
          let lines: LineSource | undefined =
            confirmedLines ?? (hit.lineTexts ? { at: (no) => hit.lineTexts!.get(no) } : undefined);
          if (!lines) {
            const bytes =
              hit.text === undefined
                ? reader.read(hit.path, MAX_GREP_FILE_BYTES, true, ripgrepExtent(a.context_lines))
                : null;
            const text = hit.text ?? (bytes && reader.confirm() ? bytes.toString('utf8') : undefined);
            if (text === undefined) continue; // vanished since the search: skip it
            lines = lineIndex(text);
          }
          for (const h of hunks(lines, picked, a.context_lines)) {
            if (a.context_lines > 0 && entries.length > 0) entries.push('--');
            for (const l of h.lines)
              entries.push(`${name}${l.isMatch ? ':' : '-'}${l.no + 1}${l.isMatch ? ':' : '-'}${clipLine(l.text)}`);
          }
        }
        if (first + picked.length < hit.matches.length) {
          hasMore = true;
          break outer;
        }
      }

      const unit = a.output_mode === 'content' ? 'matching line' : 'file';
      const shown = a.output_mode === 'content' ? total - a.offset : entries.length;
      const note = left?.note(true);
      const withNote = (text: string) => (note ? `${text}\n${note}` : text);
      if (shown <= 0) {
        const where = `/${a.pattern}/${a.case_insensitive ? 'i' : ''} in ${g.display}${a.glob ? ` (files matching ${a.glob})` : ''}`;
        return withNote(
          a.offset > 0 ? `No more matches for ${where} after offset ${a.offset}.` : `No matches for ${where}.`,
        );
      }
      const footer = hasMore
        ? `[${plural(shown, unit)} shown from offset ${a.offset}; more exist: call grep_files again with offset=${a.offset + shown}]`
        : `[${plural(shown, unit)}${a.offset > 0 ? ` from offset ${a.offset}` : ''}; end of results]`;
      return withNote(`${entries.join('\n')}\n${footer}`);
    },
  });
}

export const grepFilesTool = createGrepFilesTool();

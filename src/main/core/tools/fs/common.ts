/**
 * Helpers shared by the fs tools: the `path` argument schema and its aliases, `pathArg` (the path a card opens
 * in the viewer, docs/viewer.md), labels (`read_file \`src/a.ts\``), and line handling that keeps a file's own line
 * ending.
 */
import { z } from 'zod';
import { codeSpan, maxLabel, truncateLabel, type LabelLength } from '../../../../shared/labels';
import type { Preview, ProtectedPaths, ToolArgs } from '../tool';

/** A path argument: non-empty, no NUL (refused at normalization, before the gate, with a message for the model). */
export const pathString = () =>
  z
    .string()
    .min(1)
    .refine((v) => !v.includes('\0'), 'must not contain a NUL character');
export const pathField = (what: string) =>
  pathString().describe(`${what} Relative to the working directory, or absolute (inside the workspace).`);
/** The names models use for `path`, folded onto it by every fs tool (docs/approval.md "The normalized call"). */
export { PATH_ALIASES } from '../../../../shared/tool-names';

/** The `path` argument (aliases already folded): the single-file fs tools advertise it as the call's clickable target. */
export function pathArg(args: ToolArgs): string | null {
  const value = args.path;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * A walk's record of what it left out because a rule or guard protects it (docs/approval.md "Walks skip what is
 * protected"): `skip` for `walk` (or a search engine's results), `note` the sentence for the result, or null.
 * `note(true)` also speaks when nothing was met on the way but protected places exist under the root: a search by
 * ripgrep only reports files with matches, so this keeps both engines' answers the same.
 */
export function leftOut(
  root: string,
  policy: ProtectedPaths | undefined,
): { skip: (path: string) => boolean; note: (evenIfNoneMet?: boolean) => string | null } | null {
  if (!policy) return null;
  const skipped: string[] = [];
  return {
    skip(path) {
      if (!policy.excludes(path)) return false;
      skipped.push(path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path);
      return true;
    },
    note(evenIfNoneMet = false) {
      if (skipped.length === 0 && !evenIfNoneMet) return null;
      const places = policy.describeUnder(root);
      if (skipped.length === 0 && places.length === 0) return null;
      const named = places.length
        ? places.slice(0, 5).join(', ') + (places.length > 5 ? `, and ${places.length - 5} more` : '')
        : skipped.slice(0, 5).join(', ');
      return `[some paths were left out because a rule or guard protects them: ${named}]`;
    },
  };
}

/** Over this, the card shows the arguments without a diff (a diff of megabytes helps nobody decide). */
export const MAX_PREVIEW_CHARS = 1024 * 1024;

/** The approval card's diff for an edit the tool has planned (and checked) but not written. */
export function diffPreview(path: string, before: string | null, after: string): Preview | null {
  if ((before?.length ?? 0) > MAX_PREVIEW_CHARS || after.length > MAX_PREVIEW_CHARS) return null;
  return { kind: 'diff', path, oldContent: before, newContent: after };
}

/** `name \`detail\`` (the detail one code span, whatever backticks it holds), truncated to the label budget. */
export function label(name: string, detail: string | null | undefined, length: LabelLength): string {
  if (!detail) return name;
  return truncateLabel(`${name} ${codeSpan(detail.replace(/\s+/g, ' '))}`, maxLabel(length));
}

/** `name \`pattern\` in \`path\`` for the search tools: two code spans. */
export function searchLabel(name: string, pattern: string, path: string, length: LabelLength): string {
  return truncateLabel(`${name} ${codeSpan(pattern.replace(/\s+/g, ' '))} in ${codeSpan(path)}`, maxLabel(length));
}

/** Short labels show the last components of a long path (the part that identifies the file). */
export function shortPath(path: string, length: LabelLength): string {
  if (length === 'full' || path.length <= 40) return path;
  const parts = path.split('/');
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : path;
}

export interface Lines {
  lines: string[];
  eol: '\n' | '\r\n';
  /** The file ended with a line ending (so the last element of a split is not a line). */
  hasFinalEol: boolean;
}

export function splitLines(text: string): Lines {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const hasFinalEol = text.endsWith('\n');
  const body = hasFinalEol ? text.slice(0, text.endsWith('\r\n') ? -2 : -1) : text;
  const lines = text === '' ? [] : body.split(/\r?\n/);
  return { lines, eol, hasFinalEol };
}

export function joinLines({ lines, eol, hasFinalEol }: Lines): string {
  if (lines.length === 0) return '';
  return lines.join(eol) + (hasFinalEol ? eol : '');
}

/** New content for a line tool: one trailing newline is the end of the last line, not an extra empty line. */
export function contentLines(content: string): string[] {
  if (content === '') return [];
  const trimmed = content.endsWith('\r\n')
    ? content.slice(0, -2)
    : content.endsWith('\n')
      ? content.slice(0, -1)
      : content;
  return trimmed.split(/\r?\n/);
}

export const MAX_LINE_CHARS = 2000;

/** `cat -n` style, with over-long lines cut (and marked) so one minified line cannot flood the context. */
export function numbered(lines: readonly string[], firstLineNo: number, maxChars = MAX_LINE_CHARS): string {
  const width = String(firstLineNo + lines.length - 1).length;
  return lines
    .map((line, i) => {
      const text = line.length > maxChars ? `${line.slice(0, maxChars)}… [line cut at ${maxChars} chars]` : line;
      return `${String(firstLineNo + i).padStart(width, ' ')}\t${text}`;
    })
    .join('\n');
}

/** "1 line" / "3 lines". */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

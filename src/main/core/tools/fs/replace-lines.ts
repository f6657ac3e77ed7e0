/**
 * `replace_lines`: replaces lines `start_line`..`end_line` (1-based, inclusive) with `content`; empty content
 * deletes them. Keeps the file's line ending; one trailing newline in `content` ends its last line.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { atomicWrite, readTextForEdit, requireKind } from '../_policy/fs';
import { guardWrite } from '../_policy/guard';
import type { PreviewContext } from '../tool';
import {
  contentLines,
  diffPreview,
  joinLines,
  label,
  PATH_ALIASES,
  pathArg,
  pathField,
  plural,
  shortPath,
  splitLines,
} from './common';

const input = z.object({
  path: pathField('File to change.'),
  start_line: z.coerce.number().int().min(1).describe('First line to replace, 1-based.'),
  end_line: z.coerce.number().int().min(1).describe('Last line to replace, inclusive.'),
  content: z.string().describe('Replacement text; empty deletes the lines.'),
});

/** Every check of the replacement and the file it would produce, without writing (shared with the card's dry run). */
function plan(a: z.output<typeof input>, ctx: PreviewContext) {
  const g = guardWrite(a.path, ctx);
  requireKind(g, 'file');
  if (a.end_line < a.start_line)
    throw new ToolError(`end_line (${a.end_line}) is before start_line (${a.start_line}).`);
  const before = readTextForEdit(g);
  const file = splitLines(before);
  const count = file.lines.length;
  if (a.end_line > count)
    throw new ToolError(
      `${g.display} has ${count} lines; end_line ${a.end_line} is past the end. Read the file again for current line numbers.`,
    );
  const added = contentLines(a.content);
  file.lines.splice(a.start_line - 1, a.end_line - a.start_line + 1, ...added);
  return { g, before, after: joinLines(file), added: added.length, total: file.lines.length };
}

export const replaceLinesTool = defineTool({
  name: TN.REPLACE_LINES,
  description:
    'Replace a range of lines (1-based, inclusive) of an existing file with new text; empty content deletes them. Read the file first to get the line numbers.',
  input,
  kind: 'edit',
  category: 'filesystem',
  aliases: { ...PATH_ALIASES, text: 'content', start: 'start_line', end: 'end_line' },
  describe: (a, length) =>
    label(TN.REPLACE_LINES, `${shortPath(a.path, length)}:${a.start_line}-${a.end_line}`, length),
  targetPath: pathArg,
  preview(a, ctx) {
    const p = plan(a, ctx);
    return diffPreview(p.g.display, p.before, p.after);
  },
  execute(a, ctx) {
    const p = plan(a, ctx);
    atomicWrite(p.g, p.after, ctx);
    const removed = a.end_line - a.start_line + 1;
    return `Replaced ${plural(removed, 'line')} (${a.start_line}–${a.end_line}) of ${p.g.display} with ${plural(p.added, 'line')} (now ${p.total} lines).`;
  },
});

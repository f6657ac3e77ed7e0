/**
 * `replace_lines`: replaces lines `start_line`..`end_line` (1-based, inclusive) with `content`; empty content
 * deletes them. Keeps the file's line ending; one trailing newline in `content` ends its last line.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { atomicWrite, readTextForEdit, requireKind } from '../_policy/fs';
import { guardWrite } from '../_policy/guard';
import { contentLines, joinLines, label, PATH_ALIASES, pathArg, pathField, plural, shortPath, splitLines } from './common';

const input = z.object({
  path: pathField('File to change.'),
  start_line: z.coerce.number().int().min(1).describe('First line to replace, 1-based.'),
  end_line: z.coerce.number().int().min(1).describe('Last line to replace, inclusive.'),
  content: z.string().describe('Replacement text; empty deletes the lines.'),
});

export const replaceLinesTool = defineTool({
  name: TN.REPLACE_LINES,
  description: 'Replace a range of lines (1-based, inclusive) of an existing file with new text; empty content deletes them. Read the file first to get the line numbers.',
  input,
  kind: 'edit',
  category: 'filesystem',
  aliases: { ...PATH_ALIASES, text: 'content', start: 'start_line', end: 'end_line' },
  describe: (a, length) => label(TN.REPLACE_LINES, `${shortPath(a.path, length)}:${a.start_line}-${a.end_line}`, length),
  targetPath: pathArg,
  execute(a, ctx) {
    const g = guardWrite(a.path, ctx);
    requireKind(g, 'file');
    if (a.end_line < a.start_line) throw new ToolError(`end_line (${a.end_line}) is before start_line (${a.start_line}).`);
    const file = splitLines(readTextForEdit(g));
    const count = file.lines.length;
    if (a.end_line > count) throw new ToolError(`${g.display} has ${count} lines; end_line ${a.end_line} is past the end. Read the file again for current line numbers.`);
    const added = contentLines(a.content);
    file.lines.splice(a.start_line - 1, a.end_line - a.start_line + 1, ...added);
    atomicWrite(g, joinLines(file), ctx);
    const removed = a.end_line - a.start_line + 1;
    return `Replaced ${plural(removed, 'line')} (${a.start_line}–${a.end_line}) of ${g.display} with ${plural(added.length, 'line')} (now ${file.lines.length} lines).`;
  },
});

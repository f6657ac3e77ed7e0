/**
 * `insert_at_line`: inserts lines before line `line` (1-based); `line` = last line + 1 appends. The file's own
 * line ending (LF or CRLF) is kept; one trailing newline in `content` ends its last line rather than adding an
 * empty one.
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
  path: pathField('File to insert into.'),
  line: z.coerce
    .number()
    .int()
    .min(1)
    .describe('1-based line number; the new text is inserted before this line. Use last line + 1 to append.'),
  content: z.string().describe('Text to insert (one or more lines).'),
});

/** Every check of the insertion and the file it would produce, without writing (shared with the card's dry run). */
function plan(a: z.output<typeof input>, ctx: PreviewContext) {
  const g = guardWrite(a.path, ctx);
  requireKind(g, 'file');
  const before = readTextForEdit(g);
  const file = splitLines(before);
  const count = file.lines.length;
  if (a.line > count + 1)
    throw new ToolError(`${g.display} has ${count} lines; line must be between 1 and ${count + 1} (to append).`);
  const added = contentLines(a.content);
  if (added.length === 0) throw new ToolError('content is empty; nothing to insert.');
  // An empty file has no line ending of its own yet: take the content's.
  if (count === 0) file.hasFinalEol = a.content.endsWith('\n');
  file.lines.splice(a.line - 1, 0, ...added);
  return { g, before, after: joinLines(file), added: added.length, total: file.lines.length };
}

export const insertAtLineTool = defineTool({
  name: TN.INSERT_AT_LINE,
  description:
    'Insert text before a given line of an existing file (1-based; last line + 1 appends). Line numbers are those read_file shows.',
  input,
  kind: 'edit',
  category: 'filesystem',
  aliases: { ...PATH_ALIASES, line_number: 'line', text: 'content' },
  describe: (a, length) => label(TN.INSERT_AT_LINE, `${shortPath(a.path, length)}:${a.line}`, length),
  targetPath: pathArg,
  preview(a, ctx) {
    const p = plan(a, ctx);
    return diffPreview(p.g.display, p.before, p.after);
  },
  execute(a, ctx) {
    const p = plan(a, ctx);
    atomicWrite(p.g, p.after, ctx);
    return `Inserted ${plural(p.added, 'line')} into ${p.g.display} before line ${a.line} (now ${p.total} lines).`;
  },
});

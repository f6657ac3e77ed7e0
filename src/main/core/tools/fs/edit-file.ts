/**
 * `edit_file`: replaces `old_string` with `new_string`. Without `replace_all` the text must occur exactly once
 * (zero or several matches are reported with the count and what to do, and nothing is written); with it every
 * occurrence is replaced. Written atomically like write_file. `plan` is shared by the run and the approval card's
 * dry run, so the card never shows a diff for an edit the tool would refuse.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { atomicWrite, readTextForEdit, requireKind } from '../_policy/fs';
import { guardWrite } from '../_policy/guard';
import type { PreviewContext } from '../tool';
import { diffPreview, label, PATH_ALIASES, pathArg, pathField, plural, shortPath } from './common';

const input = z.object({
  path: pathField('File to edit.'),
  old_string: z
    .string()
    .min(1)
    .describe(
      'Exact text to replace, including whitespace and indentation. Must be unique in the file unless replace_all is true.',
    ),
  new_string: z.string().describe('Replacement text (may be empty to delete).'),
  replace_all: z.boolean().default(false).describe('Replace every occurrence instead of requiring a unique match.'),
});

function countOccurrences(text: string, needle: string): { count: number; firstLines: number[] } {
  const firstLines: number[] = [];
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    count++;
    if (firstLines.length < 5) firstLines.push(text.slice(0, at).split('\n').length);
  }
  return { count, firstLines };
}

/** Every check of the edit and the text it would produce, without writing. */
function plan(a: z.output<typeof input>, ctx: PreviewContext) {
  const g = guardWrite(a.path, ctx);
  requireKind(g, 'file');
  if (a.old_string === a.new_string)
    throw new ToolError('old_string and new_string are identical; nothing would change.');
  const text = readTextForEdit(g);
  const { count, firstLines } = countOccurrences(text, a.old_string);
  if (count === 0) {
    const hint =
      a.old_string.trim() !== a.old_string || /\t/.test(a.old_string) ? ' Check the whitespace and indentation.' : '';
    throw new ToolError(
      `old_string was not found in ${g.display}; nothing was changed.${hint} Read the file again and copy the exact text.`,
    );
  }
  if (count > 1 && !a.replace_all) {
    throw new ToolError(
      `old_string occurs ${count} times in ${g.display} (lines ${firstLines.join(', ')}${count > firstLines.length ? ', …' : ''}); nothing was changed. ` +
        'Include more surrounding lines to make it unique, or set replace_all to true.',
    );
  }
  const updated = a.replace_all
    ? text.split(a.old_string).join(a.new_string)
    : text.replace(a.old_string, () => a.new_string);
  return { g, text, updated, count };
}

export const editFileTool = defineTool({
  name: TN.EDIT_FILE,
  description:
    'Replace exact text in a file. old_string must match the file exactly (copy it from read_file output without the ' +
    'line-number prefix) and be unique, or set replace_all to change every occurrence. Use this instead of sed/awk.',
  input,
  kind: 'edit',
  category: 'filesystem',
  aliases: {
    ...PATH_ALIASES,
    old_text: 'old_string',
    new_text: 'new_string',
    search: 'old_string',
    replace: 'new_string',
  },
  describe: (a, length) => label(TN.EDIT_FILE, shortPath(a.path, length), length),
  targetPath: pathArg,
  preview(a, ctx) {
    const p = plan(a, ctx);
    return diffPreview(p.g.display, p.text, p.updated);
  },
  execute(a, ctx) {
    const { g, updated, count } = plan(a, ctx);
    atomicWrite(g, updated, ctx);
    return `Edited ${g.display}: replaced ${plural(count, 'occurrence')}.`;
  },
});

/**
 * `write_file`: creates or replaces a whole file (parent folders are created). The write is atomic — temp file,
 * fsync, rename — so a crash leaves the old or the new content, and a symlink or hard link at the target is
 * replaced rather than written through (F4–F6, R3). Protected paths, secrets/ and the data dir are refused.
 * Check ids (F4, F5, F6, R3) are listed in docs/security-checks.md.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool } from '../define-tool';
import { atomicWrite, kindAt, readCapped, readTextForPreview } from '../_policy/fs';
import { describeEncoding, textEncodingOf } from '../_policy/text-bytes';
import { guardWrite, type GuardedPath } from '../_policy/guard';
import { diffPreview, label, PATH_ALIASES, pathArg, pathField, plural, shortPath, splitLines } from './common';

/** The encoding a file about to be replaced was in, when it was UTF-16 (the write makes it UTF-8): the model is told. */
function wasUtf16(g: GuardedPath): string | null {
  if (kindAt(g.real) !== 'file') return null;
  try {
    const encoding = textEncodingOf(readCapped(g, 2).bytes);
    return encoding === 'utf16le' || encoding === 'utf16be' ? describeEncoding(encoding) : null;
  } catch {
    return null;
  }
}

const input = z.object({
  path: pathField('File to create or overwrite.'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeFileTool = defineTool({
  name: TN.WRITE_FILE,
  description:
    'Create a file, or replace its entire content. Missing parent folders are created. To change part of an existing ' +
    'file prefer edit_file, insert_at_line or replace_lines. Use this instead of echo/cat redirects in execute_cmd.',
  input,
  kind: 'edit',
  category: 'filesystem',
  isIdempotent: true,
  aliases: { ...PATH_ALIASES, text: 'content', contents: 'content' },
  describe: (a, length) => label(TN.WRITE_FILE, shortPath(a.path, length), length),
  targetPath: pathArg,
  preview(a, ctx) {
    const g = guardWrite(a.path, ctx);
    // What is there now, when it is a text file the card can show (UTF-16 decoded); a binary or huge one shows as absent.
    let before: string | null = null;
    if (kindAt(g.real) === 'file') {
      try {
        before = readTextForPreview(g)?.text ?? null;
      } catch {
        before = null;
      }
    }
    return diffPreview(g.display, before, a.content);
  },
  execute(a, ctx) {
    const g = guardWrite(a.path, ctx);
    const was = wasUtf16(g);
    const { created, bytes } = atomicWrite(g, a.content, ctx);
    const lines = splitLines(a.content).lines.length;
    return `${created ? 'Created' : 'Wrote'} ${g.display} (${plural(lines, 'line')}, ${plural(bytes, 'byte')})${was ? `; it was ${was} text and is UTF-8 now` : ''}.`;
  },
});

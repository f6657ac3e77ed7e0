/**
 * `list_files`: the entries of a folder, or (recursive) of its whole tree, as paths relative to that folder;
 * folders end in `/`. Recursive listings skip SKIP_DIRS (shown once, marked, not entered); `secrets` is never
 * shown at all. Directory symlinks are followed only inside the workspace and only once (loops end); a link that
 * leads outside is listed as such and not followed (F8). At most `limit` entries, stated when cut. A name with a line
 * break or another control character is shown quoted (shownPath), one that is not valid UTF-8 is marked.
 * Check ids (F8) are listed in docs/security-checks.md.
 */
import { z } from 'zod';
import { shownPath } from '../../../../shared/shown-path';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { doesNotExist, kindAt, SKIP_DIRS, walk } from '../_policy/fs';
import { guardRead } from '../_policy/guard';
import { label, leftOut, PATH_ALIASES, pathString } from './common';

export const DEFAULT_LIST_LIMIT = 1000;
export const MAX_LIST_LIMIT = 10_000;

const input = z.object({
  path: pathString()
    .default('.')
    .describe('Folder to list; relative to the working directory, or absolute. Default: the working directory.'),
  recursive: z
    .boolean()
    .default(false)
    .describe('List the whole tree below the folder (skips .git, node_modules and the like).'),
  max_depth: z.coerce.number().int().min(1).max(100).optional().describe('With recursive: how many levels deep to go.'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_LIMIT)
    .default(DEFAULT_LIST_LIMIT)
    .describe(`At most this many entries (default ${DEFAULT_LIST_LIMIT}).`),
});

export const listFilesTool = defineTool({
  name: TN.LIST_FILES,
  description:
    'List the files and folders in a folder (folders end with /), optionally recursively. Paths are relative to the listed folder. Use this instead of ls/find in execute_cmd.',
  input,
  kind: 'read',
  category: 'filesystem',
  isIdempotent: true,
  aliases: PATH_ALIASES,
  describe: (a, length) => label(TN.LIST_FILES, a.path, length),
  execute(a, ctx) {
    const g = guardRead(a.path, ctx);
    const kind = kindAt(g.real);
    if (kind === null) throw new ToolError(doesNotExist(g, 'List its parent folder to see what is there.'));
    if (kind !== 'dir') throw new ToolError(`${g.display} is not a folder; use read_file for files.`);
    const out: string[] = [];
    let isCut = false;
    const left = leftOut(g.real, ctx.protectedPaths);
    for (const e of walk(g.real, {
      recursive: a.recursive,
      ...(a.max_depth ? { maxDepth: a.max_depth } : {}),
      ...(left ? { skip: left.skip } : {}),
    })) {
      if (out.length >= a.limit) {
        isCut = true;
        break;
      }
      const name = e.rel.slice(e.rel.lastIndexOf('/') + 1);
      const shown = shownPath(e.rel);
      if (e.isBlocked)
        out.push(`${shown}@ (symlink not followed: it leads outside the workspace, into secrets, or loops)`);
      else if (e.isUnopenable) out.push(`${shown} (its name is not valid UTF-8: it cannot be opened by name)`);
      else if (e.kind === 'dir')
        out.push(
          `${shown}/${e.isSymlink ? ' (symlink)' : ''}${a.recursive && SKIP_DIRS.has(name.toLowerCase()) ? ' (not listed)' : ''}`,
        );
      else out.push(`${shown}${e.isSymlink ? ' (symlink)' : ''}${e.kind === 'other' ? ' (special file)' : ''}`);
    }
    const note = left?.note() ?? null;
    if (out.length === 0) return note ? `${g.display} has nothing to show.\n${note}` : `${g.display} is empty.`;
    const count = `${out.length} ${out.length === 1 ? 'entry' : 'entries'}`;
    const footer = isCut ? `[first ${count} shown; raise limit or list a subfolder]` : `[${count}]`;
    return `${out.join('\n')}\n${footer}${note ? `\n${note}` : ''}`;
  },
});

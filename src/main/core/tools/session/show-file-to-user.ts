/**
 * `show_file_to_user`: opens a file in the person's viewer (relative = the working directory, docs/viewer.md). The
 * file must be there, and be a file: otherwise the call fails with a sentence the model can act on, rather than
 * reporting it opened what the viewer then says is missing. Only its kind is looked at (a stat); the viewer reads it
 * through its own policy, and asks the person about a file outside the working directory.
 */
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { kindAt } from '../_policy/fs';
import { displayPath } from '../_policy/paths';
import { defineInterfaceTool, labelText } from './interface-tool';

export const showFileToUserTool = defineInterfaceTool({
  name: TN.SHOW_FILE_TO_USER,
  description:
    "Open a file in the user's viewer (Markdown, code, text, images, SVG, PDF, HTML, LaTeX). For a LaTeX document pass the .tex source, not a built .pdf: only the .tex is compiled and watched.",
  input: z.object({
    path: z.string().min(1).describe('File to show; relative paths resolve against the working directory.'),
  }),
  // It only looks at the file (the viewer reads it through its own policy): a read, allowed by default.
  kind: 'read',
  defaultDecision: 'allow',
  describe: (args, _length, name) => {
    const path = labelText(args.path);
    return path ? `${name} \`${path}\`` : name;
  },
  targetPath: (args) => labelText(args.path),
  run({ path }, { env }) {
    const absolute = isAbsolute(path) ? path : resolve(env.workingDir, path);
    const shown = displayPath(absolute, env.workspaceDir);
    const kind = kindAt(absolute);
    if (kind === null)
      return {
        kind: 'failed',
        error: `${shown} does not exist, so nothing was opened. Check the path (list_files shows what is there), or write the file first.`,
      };
    if (kind === 'dir')
      return {
        kind: 'failed',
        error: `${shown} is a folder; the viewer shows files. Pass a file inside it (list_files shows what is there).`,
      };
    if (kind !== 'file')
      return {
        kind: 'failed',
        error: `${shown} is not a regular file (a pipe, socket or device); nothing was opened.`,
      };
    env.openFile(shown);
    return `Opened ${shown} in the user's viewer.`;
  },
});

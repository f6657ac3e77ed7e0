/** `show_file_to_user`: opens a file in the person's viewer (relative = the working directory, docs/viewer.md). */
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { displayPath } from '../_policy/paths';
import { defineInterfaceTool } from './interface-tool';

export const showFileToUserTool = defineInterfaceTool({
  name: TN.SHOW_FILE_TO_USER,
  description:
    "Open a file in the user's viewer (Markdown, code, text, images, SVG, PDF, HTML, LaTeX). For a LaTeX document pass the .tex source, not a built .pdf: only the .tex is compiled and watched.",
  input: z.object({
    path: z.string().min(1).describe('File to show; relative paths resolve against the working directory.'),
  }),
  run({ path }, { env }) {
    const absolute = isAbsolute(path) ? path : resolve(env.workingDir, path);
    const shown = displayPath(absolute, env.workspaceDir);
    env.openFile(shown);
    return `Opened ${shown} in the user's viewer.`;
  },
});

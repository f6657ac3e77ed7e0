/**
 * `restart`: asks the shell to restart the app (desktop relaunches, web re-executes itself: docs/architecture.md
 * "Shapes and processes"). What a restart means is injected (`requestRestart`). The session loop handles `restart`
 * inline (marks the row done first, then calls the shell); this tool's own execute serves the registry's `dispatch`
 * path and defers the call by one tick so its result is recorded before the process goes away.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool } from '../define-tool';
import type { Tool } from '../tool';

export function createRestartTool(requestRestart: () => void): Tool {
  return defineTool({
    name: TN.RESTART,
    description: 'Restart the Skald app (for example after changing its configuration). The current turn ends.',
    input: z.object({}),
    kind: 'execute',
    category: 'shell',
    preview: () => ({ kind: 'command', text: '$ restart' }),
    execute() {
      setImmediate(requestRestart);
      return 'Restarting the app now.';
    },
  });
}

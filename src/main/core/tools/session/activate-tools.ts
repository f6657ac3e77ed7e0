/**
 * `activate_tools`: brings lazy tool groups into the caller's tool list from its next round (docs/agents.md
 * "activate_tools"). At depth 0 the grant lasts for the session (until `/resettools`); a sub-agent's grant lasts
 * for its own stack only. An unknown group name is refused by name with the list of known ones; nothing is granted
 * then, so a typo never half-applies. Activating never bypasses a Deny rule: the group's tools pass the same
 * permission-group filter as every other tool.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineInterfaceTool } from './interface-tool';

export const activateToolsTool = defineInterfaceTool({
  name: TN.ACTIVATE_TOOLS,
  description:
    'Activate tool groups you need: "config" (the app\'s settings tools) and any other group list_items names. The tools are offered from your next round on.',
  input: z.object({
    groups: z.array(z.string().min(1).max(100)).min(1).max(20).describe('Group names, e.g. ["config"].'),
  }),
  defaultDecision: 'allow',
  run({ groups }, { env }) {
    const known = env.groupNames();
    const unknown = groups.filter((g) => !known.includes(g));
    if (unknown.length) {
      return {
        kind: 'failed',
        error: `Unknown tool group(s): ${unknown.join(', ')}. Known groups: ${known.join(', ') || 'none'}. Nothing was activated.`,
      };
    }
    const names = [...new Set(groups)];
    env.grant(names);
    const scope =
      env.frame.depth === 0
        ? 'for the rest of this session (until /resettools)'
        : 'for the rest of this sub-agent task';
    return `Activated ${names.join(', ')} ${scope}. The tools are offered from your next round.`;
  },
});

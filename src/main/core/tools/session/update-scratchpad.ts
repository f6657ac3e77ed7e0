/**
 * `update_scratchpad`: a note on the session's shared scratchpad (`session_scratchpad`), which every agent of the
 * session sees as a `<scratchpad>` block in its system message from the next round. Same key = last writer wins;
 * an empty value deletes. The person reads and edits the same notes in the side panel (scratchpad-store.ts).
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineInterfaceTool } from './interface-tool';

export const updateScratchpadTool = defineInterfaceTool({
  name: TN.UPDATE_SCRATCHPAD,
  description:
    'Write a note to the session scratchpad shared by every agent of this session (same key = replace; empty value = delete).',
  input: z.object({ key: z.string().min(1).max(200), value: z.string().max(20_000) }),
  defaultDecision: 'allow',
  run({ key, value }, { env }) {
    const removed = env.scratchpad.write(env.padSessionId, key, value);
    env.scratchpadChanged();
    return removed ? `Removed scratchpad note "${key}".` : `Saved scratchpad note "${key}".`;
  },
});

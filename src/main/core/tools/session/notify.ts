/**
 * `notify`: a background task agent tells the person's home conversation something (docs/agents.md
 * "Notifications"; docs/scheduler.md). Offered only to the agent of a background run (depth 0 of an async task or a
 * scheduled run), never in a chat. Queued notifications are batched (200 ms) into the home session as one
 * `read_notification` result, which resumes it (scheduler/notifications.ts).
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineInterfaceTool } from './interface-tool';

export const notifyTool = defineInterfaceTool({
  name: TN.NOTIFY,
  description:
    "Send a short notification to the user's home conversation (for what they should know now, not the final result).",
  input: z.object({
    source: z.string().min(1).max(100).describe('Who is notifying, e.g. the job or task title.'),
    event_type: z.string().min(1).max(100).describe('What happened, e.g. "build_failed", "found".'),
    summary: z.string().min(1).max(4_000),
    event_time: z.string().max(64).optional().describe('ISO time of the event; default now.'),
    refs: z.array(z.string().max(2_000)).max(20).optional().describe('Paths or ids the user may want to open.'),
  }),
  defaultDecision: 'allow',
  run(args, { env, callEnv }) {
    if (!env.background)
      return { kind: 'failed', error: 'notify is only for background runs (async tasks and scheduled jobs).' };
    return env.background.notify(callEnv, args);
  },
});

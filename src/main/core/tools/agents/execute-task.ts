/**
 * `execute_task` (interactive sessions) and `execute_subtask` (background runs and sub-agents): hand a task to a
 * task agent (docs/agents.md "Sub-agents"). Modes of `execute_task`:
 * - `sync`: a child stack runs inline; its final answer is this call's result;
 * - `async`: a background run (scheduler/schedules.ts); the call returns the task's handle at once and the result
 *   arrives later in this session as a `task_completed` result of `read_agent_result`, which resumes it;
 * - `cron`: a scheduled job, saved disabled until the person enables it (docs/scheduler.md).
 * Where no scheduler is wired (`SyntheticEnv.background` null: a call outside a session turn) both are refused.
 * `execute_subtask` is always sync. Every refusal (unknown agent, not a task agent, the caller itself or `main`,
 * too deep, a bad cron expression, background work not available) is a failed result the model can read.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import type { ToolArgs } from '../tool';
import { defineInterfaceTool, labelText } from '../session/interface-tool';

const MODE_EMOJI: Readonly<Record<string, string>> = { sync: '⚡', async: '🚀', cron: '📅' };

/**
 * A sub-agent launcher's label (docs/chat-ui.md "Labels, commands and output"): `execute_task ⚡ → agent:
 * description`, the mode as one emoji (sync ⚡, async 🚀, cron 📅), falling back to `title`, then to the bare name.
 */
function describeLaunch(name: string, args: ToolArgs): string {
  const mode = name === TN.EXECUTE_TASK ? MODE_EMOJI[labelText(args.mode) ?? 'sync'] : undefined;
  const head = mode ? `${name} ${mode}` : name;
  const agent = labelText(args.agent_id);
  const what = labelText(args.description) ?? labelText(args.title);
  if (agent && what) return `${head} → ${agent}: ${what.replace(/\s+/g, ' ')}`;
  if (agent) return `${head} → ${agent}`;
  if (what) return `${head}: ${what.replace(/\s+/g, ' ')}`;
  return head;
}

const agentId = z.string().min(1).max(64).describe('The task agent to run (see list_items with type "agents").');
const prompt = z
  .string()
  .min(1)
  .max(100_000)
  .describe('Everything the agent needs to know: it sees nothing else of this conversation.');
const title = z.string().min(1).max(200).describe('A short title shown to the user.');
const client = z
  .string()
  .min(1)
  .max(300)
  .optional()
  .describe("Model to run the agent on (id or name); default: the agent's own, else the app's default.");

const executeTaskInput = z
  .object({
    mode: z
      .enum(['sync', 'async', 'cron'])
      .default('sync')
      .describe(
        'sync: run now and wait for the answer. async: run in the background; the call returns a task_id at once and the result arrives by itself later as a task_completed message. cron: save a scheduled job (runs in a fresh session at the times of `cron`).',
      ),
    agent_id: agentId,
    prompt,
    title,
    cron: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'mode cron only: 6 fields with seconds "sec min hour day month weekday" (e.g. "0 0 9 * * 1-5": 09:00 on weekdays, local time), 7 with a year, or an ISO date-time ("2030-01-31T09:00:00") for one run.',
      ),
    client,
  })
  .superRefine((v, ctx) => {
    if (v.mode === 'cron' && !v.cron)
      ctx.addIssue({ code: 'custom', path: ['cron'], message: 'mode "cron" needs a cron expression' });
    if (v.mode !== 'cron' && v.cron)
      ctx.addIssue({
        code: 'custom',
        path: ['cron'],
        message: `a cron expression is only for mode "cron", not "${v.mode}"`,
      });
  });

const NO_BACKGROUND = 'Background tasks cannot be started from here; use mode "sync".';

export const executeTaskTool = defineInterfaceTool({
  name: TN.EXECUTE_TASK,
  description:
    'Hand a task to a task agent (see list_items with type "agents"); it sees only your prompt. mode "sync" runs it now and returns its answer (several sync calls in one reply run in parallel). mode "async" runs it in the background and returns a task_id at once; its result arrives by itself as a task_completed message (never poll). mode "cron" saves a scheduled job that runs the prompt in a fresh session at the times of `cron`; it is saved disabled and the user enables it on the Schedules page; results come back here as notifications.',
  input: executeTaskInput,
  defaultDecision: 'allow',
  card: 'sub_agent',
  describe: (args, _length, name) => describeLaunch(name, args),
  run(args, { env, callEnv, toolCallId }) {
    const request = {
      agentId: args.agent_id,
      prompt: args.prompt,
      title: args.title,
      ...(args.client ? { client: args.client } : {}),
    };
    if (args.mode === 'sync') return env.subAgents.runSync(callEnv, toolCallId, request);
    if (!env.background) return { kind: 'failed', error: NO_BACKGROUND };
    if (args.mode === 'async') return env.background.startAsync(callEnv, toolCallId, request);
    return env.background.createCronJob(callEnv, { ...request, cron: args.cron! });
  },
});

export const executeSubtaskTool = defineInterfaceTool({
  name: TN.EXECUTE_SUBTASK,
  description:
    'Hand a sub-task to a task agent and wait for its answer (it runs now, inside this task). Several calls in one reply run in parallel.',
  input: z.object({ agent_id: agentId, prompt, title, client }),
  defaultDecision: 'allow',
  card: 'sub_agent',
  // Its stored calls under the name it had before (`run_subtask`) are labelled as its own.
  formerNames: ['run_subtask'],
  describe: (args, _length, name) => describeLaunch(name, args),
  run(args, { env, callEnv, toolCallId }) {
    return env.subAgents.runSync(callEnv, toolCallId, {
      agentId: args.agent_id,
      prompt: args.prompt,
      title: args.title,
      ...(args.client ? { client: args.client } : {}),
    });
  },
});

/** Whether a call is a sync sub-agent call (those of one round may run in parallel). */
export function isSyncSubAgentCall(name: string, rawArguments: string): boolean {
  if (name === TN.EXECUTE_SUBTASK) return true;
  if (name !== TN.EXECUTE_TASK) return false;
  try {
    const args = JSON.parse(rawArguments) as { mode?: unknown };
    return args.mode === undefined || args.mode === 'sync';
  } catch {
    return false;
  }
}

export const readAgentResultTool = defineInterfaceTool({
  name: TN.READ_AGENT_RESULT,
  description:
    'Results of async tasks are delivered to you as task_completed messages; this only confirms one is not ready yet.',
  input: z.object({ task_id: z.union([z.string(), z.number()]).optional() }),
  kind: 'read',
  defaultDecision: 'allow',
  card: 'delivered',
  // A result delivered by itself (docs/scheduler.md "Delivery": arguments `{"delivered": true}`).
  describe: (args, _length, name) => (args.delivered === true ? `${name}: a task finished` : name),
  run() {
    return {
      kind: 'completed',
      result: JSON.stringify({
        status: 'not_ready',
        note: 'The result arrives by itself as a task_completed message when the task ends.',
      }),
      resultType: 'json',
    };
  },
});

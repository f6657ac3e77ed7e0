/**
 * The model's handles on scheduled jobs (docs/scheduler.md "Tools"), over the scheduler's `Schedules`:
 * - `delete_cron_job` (Config, destructive, kept apart from `toggle_item` like `delete_mcp`): deletes a job with
 *   its runs and their sessions; a running run is stopped first;
 * - the `cron` kind of `toggle_item` (registered through `ItemTogglers`): enable from the next time after now, or
 *   disable;
 * - the `cron` lister of `list_items`: each job's id, title, agent, pattern, state, next run (local time) and last
 *   outcome, never its run context's secrets (it has none) nor other sessions' content.
 * A job is named by its id or its exact title; an unknown or ambiguous one is a result the model can read.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { label } from '../fs/common';
import type { ItemToggler } from '../mcp/toggle-item';
import type { Tool } from '../tool';

/** A refusal the model reads: an unknown or ambiguous job, or one that cannot change now. */
type Refused = { error: string };

/** One scheduled job as the cron tools show it. */
export interface CronJobView {
  id: number;
  title: string;
  agent_id: string;
  cron: string | null;
  single_run: boolean;
  enabled: boolean;
  /** Epoch ms; null when disabled or it will not run again. */
  next_run_at: number | null;
  permission_group: string;
  last_run: { status: string; started_at: number; error: string | null; waiting: number } | null;
}

/** The scheduler's jobs as the cron tools change them (scheduler/schedules.ts's `Schedules` is the one). */
export interface SchedulesPort {
  delete(job: string | number): Promise<{ id: number; title: string } | Refused>;
  setEnabled(job: string | number, enabled: boolean): CronJobView | Refused;
  list(kind: 'cron'): readonly CronJobView[];
}

const localTime = (ms: number | null) => (ms === null ? null : new Date(ms).toString());

export function createDeleteCronJobTool(schedules: () => SchedulesPort): Tool {
  return defineTool({
    name: TN.DELETE_CRON_JOB,
    description:
      'Delete a scheduled job for good, with its run history (to pause it instead, use toggle_item with kind "cron"). A running run is stopped first.',
    input: z.object({
      job: z
        .union([z.number().int().positive(), z.string().min(1).max(200)])
        .describe('The job id, or its exact title (see list_items with type "cron").'),
    }),
    kind: 'config',
    category: 'config',
    describe: ({ job }, length) => label(TN.DELETE_CRON_JOB, String(job), length),
    async executeAsync({ job }) {
      const result = await schedules().delete(job);
      if ('error' in result) throw new ToolError(result.error);
      return `Deleted scheduled job ${result.id} ("${result.title}") and its runs.`;
    },
  });
}

export function cronToggler(schedules: () => SchedulesPort): ItemToggler {
  return async (name, enabled) => {
    const result = schedules().setEnabled(name, enabled);
    if ('error' in result) throw new ToolError(result.error);
    return enabled
      ? `Enabled scheduled job ${result.id} ("${result.title}"); next run ${localTime(result.next_run_at)}.`
      : `Disabled scheduled job ${result.id} ("${result.title}"); it runs no more until enabled.`;
  };
}

export function cronLister(schedules: () => SchedulesPort): () => Record<string, unknown>[] {
  return () =>
    schedules()
      .list('cron')
      .map((j) => ({
        id: j.id,
        title: j.title,
        agent_id: j.agent_id,
        cron: j.cron,
        one_shot: j.single_run,
        enabled: j.enabled,
        next_run: localTime(j.next_run_at),
        permission_group: j.permission_group,
        last_run: j.last_run
          ? {
              status: j.last_run.status,
              started: localTime(j.last_run.started_at),
              error: j.last_run.error,
              waiting_for_user: j.last_run.waiting,
            }
          : null,
      }));
}

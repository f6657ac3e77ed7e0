/**
 * Background work (docs/scheduler.md): the `schedules:*` calls of the Schedules page and the `schedules` event
 * family. Jobs are named by id here (the page has them); the model's tools also take exact titles. Times are epoch
 * milliseconds; the page shows them in local time.
 */
import { z } from 'zod';
import { defineCall, id } from './define';

export const RunStatusSchema = z.enum(['running', 'success', 'failed', 'cancelled', 'interrupted']);

export const RunViewSchema = z.object({
  id: z.number(),
  status: RunStatusSchema,
  trigger: z.enum(['schedule', 'manual', 'rerun', 'async']),
  session_id: z.number().nullable(),
  started_at: z.number(),
  finished_at: z.number().nullable(),
  error: z.string().nullable(),
  /** Approvals and questions of this run waiting in the Inbox. */
  waiting: z.number(),
});
export type RunView = z.infer<typeof RunViewSchema>;

export const JobViewSchema = z.object({
  id: z.number(),
  kind: z.enum(['cron', 'async']),
  title: z.string(),
  agent_id: z.string(),
  prompt: z.string(),
  cron: z.string().nullable(),
  single_run: z.boolean(),
  enabled: z.boolean(),
  next_run_at: z.number().nullable(),
  permission_group: z.string(),
  working_directory: z.string().nullable(),
  parent_session_id: z.number().nullable(),
  created_at: z.number(),
  last_run: RunViewSchema.nullable(),
});
export type JobView = z.infer<typeof JobViewSchema>;

const ruleLine = z.object({
  tool_pattern: z.string(),
  path_pattern: z.string().nullable(),
  command_pattern: z.string().nullable(),
  note: z.string().nullable(),
});

/** What a job's runs may do without asking (allow rules that apply to them), what they may never do, and the rest. */
export const EnvelopeSchema = z.object({
  permission_group: z.string(),
  group_name: z.string(),
  agent_id: z.string(),
  agent_name: z.string(),
  /** The agent's own narrowing of the built-in tools (meta.json `tools`); null = every tool. */
  agent_tools: z.array(z.string()).nullable(),
  allowed: z.array(ruleLine),
  denied: z.array(ruleLine),
  working_directory: z.string(),
  /** Folders whose files its runs read without asking (the run context's file fast-path: the working directory first). */
  reads_in: z.array(z.string()),
  /** Folders whose files its runs write without asking (the run context's `allow_fs_writes`). */
  writes_in: z.array(z.string()),
});
export type Envelope = z.infer<typeof EnvelopeSchema>;

const jobId = z.object({ jobId: id }).strict();

export const schedulesCalls = {
  /** Scheduled jobs and async tasks, each with its last run. */
  'schedules:list': defineCall(
    z.object({}).strict(),
    z.object({ jobs: z.array(JobViewSchema), tasks: z.array(JobViewSchema) }),
  ),
  'schedules:runs': defineCall(
    z.object({ jobId: id, limit: z.number().int().min(1).max(200).optional() }).strict(),
    z.object({ runs: z.array(RunViewSchema) }),
  ),
  'schedules:envelope': defineCall(jobId, EnvelopeSchema),
  'schedules:setEnabled': defineCall(
    z.object({ jobId: id, enabled: z.boolean() }).strict(),
    z.object({ job: JobViewSchema }),
  ),
  'schedules:delete': defineCall(jobId, z.object({ ok: z.literal(true) })),
  /** Starts a run now (a disabled job too); refused while one runs. */
  'schedules:runNow': defineCall(jobId, z.object({ run: RunViewSchema })),
  'schedules:stopRun': defineCall(z.object({ runId: id }).strict(), z.object({ stopped: z.boolean() })),
  /** The run a background session belongs to (the chat shows it as one); null for a person's chat. */
  'schedules:runOfSession': defineCall(
    z.object({ sessionId: id }).strict(),
    z.object({
      run: z
        .object({ job_id: z.number(), job_title: z.string(), kind: z.enum(['cron', 'async']), run: RunViewSchema })
        .nullable(),
    }),
  ),
} as const;

export const SchedulesEventSchema = z.discriminatedUnion('type', [
  /** A job or run changed: the page re-reads `schedules:list`. */
  z.object({ type: z.literal('changed') }),
]);
export type SchedulesEvent = z.infer<typeof SchedulesEventSchema>;

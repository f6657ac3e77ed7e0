/**
 * What the model and the person do with background work (docs/scheduler.md), over the job store and the scheduler:
 * - the model side (`BackgroundPort`): `execute_task` mode `async` (a task run now in the background; the call
 *   returns its handle at once) and mode `cron` (a scheduled job, saved disabled: the person enables it after
 *   seeing what it may do without asking), and `notify` from a background run's own agent;
 * - the management side, shared by the tools (`list_items`, `toggle_item`, `delete_cron_job`) and the Schedules
 *   page: list, enable/disable, delete, run now, stop a run.
 * Refusals (unknown agent, not a task agent, `main`, self, a bad pattern, an unknown job) are sentences the model
 * or person can act on; nothing is half-created.
 */
import type { AgentRegistry } from '../agents/agent-registry';
import { checkTaskTarget, modelSelectionFor } from '../agents/task-target';
import type { AgentFrame } from '../agents/frame';
import type { RunContext } from '../../../shared/run-context';
import type { BackgroundPort, NotificationInput, TaskRequest } from '../tools/session/interface-tool';
import type { ExecutionOutcome } from '../tools/tool';
import { nextRunAfter, parsePattern } from './cron-pattern';
import type { JobRow, JobStore, RunRow } from './job-store';
import type { NotificationBatcher } from './notifications';
import type { Scheduler } from './scheduler';

/**
 * What a request reads of its caller's call: the session's `CallEnv` is passed as it is (BackgroundPort hands it on
 * opaque), and only these fields of it are read, so the scheduler does not import the session.
 */
export interface BackgroundCaller {
  readonly sessionId: number;
  readonly runContext: RunContext;
  readonly synthetic: { readonly frame: AgentFrame };
}

export interface RunView {
  id: number;
  status: RunRow['status'];
  trigger: RunRow['trigger'];
  session_id: number | null;
  started_at: number;
  finished_at: number | null;
  error: string | null;
  /** Approvals and questions of this run waiting in the Inbox (a running run waiting on a person). */
  waiting: number;
}

export interface JobView {
  id: number;
  kind: JobRow['kind'];
  title: string;
  agent_id: string;
  prompt: string;
  cron: string | null;
  single_run: boolean;
  enabled: boolean;
  /** Epoch ms; null when disabled or it will not run again. */
  next_run_at: number | null;
  permission_group: string;
  working_directory: string | null;
  parent_session_id: number | null;
  created_at: number;
  last_run: RunView | null;
}

export interface SchedulesDeps {
  jobs: JobStore;
  scheduler: Scheduler;
  agents: AgentRegistry;
  resolveModel: (arg: string) => { ok: boolean; selection: string; message: string };
  notifications: NotificationBatcher;
  homeOf: (job: JobRow) => number;
  /** Pending approvals and questions of a session (the Inbox). */
  waitingOn: (sessionId: number) => number;
  now?: () => number;
}

type Result<T> = T | { error: string };

const json = (body: unknown): ExecutionOutcome => ({
  kind: 'completed',
  result: JSON.stringify(body),
  resultType: 'json',
});
const localTime = (ms: number | null) => (ms === null ? null : new Date(ms).toString());

export class Schedules implements BackgroundPort {
  private readonly now: () => number;

  constructor(private readonly deps: SchedulesDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** The checks every new job passes: a task agent that may be started by this caller, a model it can run on. */
  private checkRequest(parent: BackgroundCaller, request: TaskRequest): { error: string } | null {
    const agent = checkTaskTarget(this.deps.agents, parent.synthetic.frame, request.agentId);
    if ('error' in agent) return agent;
    const model = modelSelectionFor(agent, request.client, this.deps.resolveModel);
    return 'error' in model ? model : null;
  }

  startAsync(parent: BackgroundCaller, toolCallId: string, request: TaskRequest): ExecutionOutcome {
    const refused = this.checkRequest(parent, request);
    if (refused) return { kind: 'failed', error: refused.error };
    const { jobs, scheduler } = this.deps;
    const id = jobs.create({
      kind: 'async',
      title: request.title,
      agentId: request.agentId,
      prompt: request.prompt,
      client: request.client ?? null,
      singleRun: true,
      enabled: false,
      nextRunAt: null,
      parentSessionId: parent.sessionId,
      parentToolCallId: toolCallId,
      runContext: parent.runContext,
    });
    const started = scheduler.startRun(jobs.get(id)!, 'async');
    if (!started) return { kind: 'failed', error: 'The task could not be started (the app is shutting down).' };
    return json({
      task_id: id,
      status: 'started',
      title: request.title,
      note: 'It runs in the background. Its result arrives by itself as a task_completed message; do not poll or wait for it. Go on with other work or end your turn.',
    });
  }

  createCronJob(parent: BackgroundCaller, request: TaskRequest & { cron: string }): ExecutionOutcome {
    const refused = this.checkRequest(parent, request);
    if (refused) return { kind: 'failed', error: refused.error };
    const pattern = parsePattern(request.cron, this.now());
    if ('error' in pattern) return { kind: 'failed', error: pattern.error };
    const id = this.deps.jobs.create({
      kind: 'cron',
      title: request.title,
      agentId: request.agentId,
      prompt: request.prompt,
      client: request.client ?? null,
      cron: pattern.pattern,
      singleRun: pattern.singleRun,
      enabled: false,
      nextRunAt: null,
      parentSessionId: parent.sessionId,
      runContext: parent.runContext,
    });
    this.deps.scheduler.arm();
    return json({
      job_id: id,
      title: request.title,
      cron: pattern.pattern,
      single_run: pattern.singleRun,
      enabled: false,
      first_run_if_enabled_now: localTime(nextRunAfter(pattern.pattern, this.now())),
      note: 'Saved disabled. The user reviews what it may do without asking and enables it on the Schedules page. Each run starts a fresh session with this prompt only; results come back to this conversation as notifications.',
    });
  }

  notify(parent: BackgroundCaller, n: NotificationInput): ExecutionOutcome {
    const run = this.deps.jobs.runOfSession(parent.sessionId);
    const job = run ? this.deps.jobs.get(run.job_id) : undefined;
    if (!job) return { kind: 'failed', error: 'notify is only for background runs (async tasks and scheduled jobs).' };
    const home = job.kind === 'async' && job.parent_session_id !== null ? job.parent_session_id : this.deps.homeOf(job);
    this.deps.notifications.push(home, {
      source: n.source,
      event_type: n.event_type,
      summary: n.summary,
      event_time: n.event_time ?? new Date(this.now()).toISOString(),
      refs: n.refs ?? [],
    });
    return { kind: 'completed', result: "Queued: it reaches the user's conversation within a moment." };
  }

  view(job: JobRow): JobView {
    const runContext = job.run_context
      ? (JSON.parse(job.run_context) as { security_group?: string; working_directory?: string | null })
      : {};
    const last = this.deps.jobs.runs(job.id, 1)[0];
    return {
      id: job.id,
      kind: job.kind,
      title: job.title,
      agent_id: job.agent_id,
      prompt: job.prompt,
      cron: job.cron,
      single_run: job.single_run === 1,
      enabled: job.enabled === 1,
      next_run_at: job.next_run_at,
      permission_group: runContext.security_group ?? 'default',
      working_directory: runContext.working_directory ?? null,
      parent_session_id: job.parent_session_id,
      created_at: job.created_at,
      last_run: last ? this.runView(last) : null,
    };
  }

  runView(run: RunRow): RunView {
    return {
      id: run.id,
      status: run.status,
      trigger: run.trigger,
      session_id: run.session_id,
      started_at: run.started_at,
      finished_at: run.finished_at,
      error: run.error,
      waiting: run.status === 'running' && run.session_id !== null ? this.deps.waitingOn(run.session_id) : 0,
    };
  }

  list(kind: JobRow['kind'] = 'cron'): JobView[] {
    return this.deps.jobs.list(kind).map((j) => this.view(j));
  }

  runs(jobId: number, limit = 20): Result<RunView[]> {
    if (!this.deps.jobs.get(jobId)) return { error: `There is no job ${jobId}.` };
    return this.deps.jobs.runs(jobId, limit).map((r) => this.runView(r));
  }

  /** Enables (from its next time after now) or disables a cron job, by id or exact title. */
  setEnabled(ref: string | number, enabled: boolean): Result<JobView> {
    const job = this.deps.jobs.find(ref);
    if ('error' in job) return job;
    let next: number | null = null;
    if (enabled) {
      next = nextRunAfter(job.cron ?? '', this.now());
      if (next === null)
        return {
          error: `"${job.title}" (${job.cron}) has no future time left to run at; delete it or create a new one.`,
        };
    }
    this.deps.jobs.setEnabled(job.id, enabled, next);
    this.deps.scheduler.arm();
    this.deps.scheduler.notifyChanged();
    return this.view(this.deps.jobs.get(job.id)!);
  }

  /** Deletes a cron job with its runs and their sessions; a running run is stopped first. */
  async delete(ref: string | number): Promise<Result<{ id: number; title: string }>> {
    const job = this.deps.jobs.find(ref);
    if ('error' in job) return job;
    await this.deps.scheduler.deleteJob(job);
    return { id: job.id, title: job.title };
  }

  /** Starts a run now (a disabled job too: the person tries it before enabling it). */
  runNow(jobId: number): Result<{ run: RunView }> {
    const job = this.deps.jobs.find(jobId);
    if ('error' in job) return job;
    const started = this.deps.scheduler.startRun(job, 'manual');
    if (!started) return { error: `"${job.title}" is already running; it never runs twice at once.` };
    return { run: this.runView(this.deps.jobs.getRun(started.runId)!) };
  }

  stopRun(runId: number): Result<{ stopped: boolean }> {
    const run = this.deps.jobs.getRun(runId);
    if (!run) return { error: `There is no run ${runId}.` };
    return { stopped: this.deps.scheduler.stopRun(run) };
  }
}

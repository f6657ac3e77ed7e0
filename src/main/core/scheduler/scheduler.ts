/**
 * The scheduler (docs/scheduler.md): runs cron jobs at their time and async tasks at once, each run in a fresh
 * background session (not interactive: its approvals and questions wait in the Inbox) under the job's saved run
 * context, permission group, agent and model, through the same turn loop and gate as any chat turn.
 * - Tick: the timer is armed for the earliest `next_run_at`, and never sleeps longer than `TICK_MS` (a changed
 *   clock or a sleeping machine is noticed within that). Due = enabled, `next_run_at` ≤ now. A due job whose
 *   previous run is still going is not started again (the database refuses a second running run): that slot is
 *   skipped and the job moves to its next time.
 * - Missed while the app was closed: a job due in the past runs once at the first tick, however many of its times
 *   were missed, then follows its pattern from now.
 * - Crash: runs found `running` at start are marked `interrupted` (their unfinished calls end `failed`, so nothing of
 *   them is resumed or re-asked) and re-run once, in a fresh session; a re-run that is interrupted again is not.
 *   Quitting the app counts as an interruption too (`dispose` leaves running runs as they are).
 * - Outcome: a cron run's result goes to its home session as a notification; an async task's to its parent
 *   session as a `task_completed` result of `read_agent_result`. Both resume that session.
 * - Retention: finished runs and idle one-shot jobs older than 7 days are deleted (job-store.ts), with their sessions.
 */
import type { AgentRegistry } from '../agents/agent-registry';
import { modelSelectionFor } from '../agents/task-target';
import type { Db } from '../db/database';
import type { TurnResult } from '../../../shared/contract/chat';
import type { MessageRow, NewBackgroundSession, SessionRow } from '../db/session-rows';
import { TN } from '../../../shared/tool-names';
import { nextRunAfter } from './cron-pattern';
import type { JobRow, JobStore, RunRow, RunStatus, RunTrigger } from './job-store';
import type { NotificationBatcher, Timers } from './notifications';

/** The longest the scheduler sleeps between two looks at the jobs. */
export const TICK_MS = 30_000;
const PURGE_EVERY_MS = 60 * 60 * 1000;
export const INTERRUPTED_RUN =
  'The app stopped while this run was going; it is re-run once from its prompt in a fresh session.';
export const INTERRUPTED_AGAIN =
  'The app stopped while this re-run was going; it is not re-run again (it runs at its next time, or use Run now).';

/** What the scheduler needs of the sessions service (session-manager.ts). */
export interface BackgroundSessions {
  runPrompt(sessionId: number, content: string): Promise<TurnResult>;
  deliverResult(sessionId: number, toolName: string, result: string): Promise<void>;
  stop(sessionId: number): boolean;
  settle(sessionId: number): Promise<TurnResult | null>;
}

export type { Timers };

/**
 * What the scheduler writes and reads of its runs' sessions, through their one writer (session/session-store.ts,
 * passed by core/index.ts): declared here so the scheduler does not import the session.
 */
export interface RunSessionRows {
  createBackgroundSession(s: NewBackgroundSession): number;
  deleteBackgroundSessions(ids: readonly number[]): number;
  failUnfinishedInSession(sessionId: number, note: string): number;
  getSession(id: number): SessionRow | undefined;
  lastMessage(sessionId: number): MessageRow | undefined;
}

export interface SchedulerDeps {
  db: Db;
  jobs: JobStore;
  /** Writes the runs' sessions (the session store is the one writer of `chat_sessions`). */
  sessionRows: RunSessionRows;
  sessions: BackgroundSessions;
  agents: AgentRegistry;
  resolveModel: (arg: string) => { ok: boolean; selection: string; message: string };
  notifications: NotificationBatcher;
  /** The interactive session a job's notifications go to (its creator's, else the latest chat, else a new one). */
  homeOf: (job: JobRow) => number;
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** A job or run changed (the Schedules page reloads). */
  onChanged?: () => void;
  now?: () => number;
  timers: Timers;
}

export interface RunOutcome {
  runId: number;
  status: Exclude<RunStatus, 'running'>;
}

/**
 * At start, before pending calls come back into the Inbox: runs left `running` by a crash or a quit are marked
 * interrupted and their unfinished calls end `failed` (never resumed, never re-asked). Returns the jobs to re-run
 * once: those whose interrupted run was not itself a re-run.
 */
export function recoverInterruptedRuns(
  jobs: JobStore,
  sessionRows: Pick<RunSessionRows, 'failUnfinishedInSession'>,
): JobRow[] {
  const reRuns: JobRow[] = [];
  for (const run of jobs.runningRuns()) {
    if (run.session_id !== null)
      sessionRows.failUnfinishedInSession(run.session_id, 'Interrupted when the app stopped; the run is re-run whole.');
    const again = run.trigger === 'rerun';
    jobs.finishRun(run.id, 'interrupted', null, again ? INTERRUPTED_AGAIN : INTERRUPTED_RUN);
    const job = jobs.get(run.job_id);
    if (job && !again) reRuns.push(job);
  }
  return reRuns;
}

export class Scheduler {
  private readonly now: () => number;
  private readonly timers: Timers;
  private timer: unknown = null;
  private disposed = false;
  private started = false;
  private lastPurge = 0;
  /** Runs started by this process, by run id: what settles when each ends (tests, "Run now"). */
  private readonly live = new Map<number, Promise<RunOutcome>>();

  constructor(private readonly deps: SchedulerDeps) {
    this.now = deps.now ?? Date.now;
    this.timers = deps.timers;
  }

  /** Re-runs what a crash interrupted (`recoverInterruptedRuns`), purges old runs, and starts ticking. */
  start(reRuns: readonly JobRow[] = []): void {
    if (this.started || this.disposed) return;
    this.started = true;
    for (const job of reRuns) this.startRun(job, 'rerun');
    this.tick();
  }

  /** Runs every due job (once), purges when it is time, and re-arms the timer. Public for tests and "now". */
  tick(): void {
    if (this.disposed) return;
    const now = this.now();
    const { jobs, log } = this.deps;
    for (const job of jobs.due(now)) {
      const next = job.single_run ? null : nextRunAfter(job.cron ?? '', now);
      if (jobs.runningRunOf(job.id)) {
        // A one-shot already running ("Run now" just before its time) has had its run; a repeating job skips this time.
        if (job.single_run) jobs.setEnabled(job.id, false, null);
        else {
          log('a scheduled job came due while its previous run was still going; this time is skipped', {
            job: job.id,
            title: job.title,
          });
          jobs.setNextRun(job.id, next);
        }
        continue;
      }
      if (job.single_run) jobs.setEnabled(job.id, false, null);
      else jobs.setNextRun(job.id, next);
      this.startRun(job, 'schedule');
    }
    if (now - this.lastPurge >= PURGE_EVERY_MS) this.purge(now);
    this.arm();
  }

  /** Deletes finished runs and idle one-shot jobs past the retention, and their sessions. */
  purge(now: number = this.now()): { runs: number; jobs: number; sessions: number } {
    this.lastPurge = now;
    const result = this.deps.jobs.purge(now);
    const sessions = result.sessions.length ? this.deps.sessionRows.deleteBackgroundSessions(result.sessions) : 0;
    if (result.runs || result.jobs) {
      this.deps.log('purged old scheduler runs', { runs: result.runs, jobs: result.jobs, sessions });
      this.changed();
    }
    return { runs: result.runs, jobs: result.jobs, sessions };
  }

  /**
   * Starts one run of a job in a fresh session; null when the job already has a running run. A job whose agent or
   * model cannot be used records a failed run (no session) saying why.
   */
  startRun(
    job: JobRow,
    trigger: RunTrigger,
  ): { runId: number; sessionId: number | null; done: Promise<RunOutcome> } | null {
    const { jobs, sessionRows, agents } = this.deps;
    if (this.disposed) return null;
    const agent = agents.get(job.agent_id);
    const problem =
      'error' in agent
        ? agent.error
        : agent.type !== 'task'
          ? `"${job.agent_id}" is a ${agent.type} agent; only task agents run jobs.`
          : null;
    const model = 'error' in agent || problem ? null : modelSelectionFor(agent, job.client, this.deps.resolveModel);
    if (problem || !model || 'error' in model) {
      const runId = jobs.startRun(job.id, null, trigger);
      if (runId === null) return null;
      const error = problem ?? (model && 'error' in model ? model.error : 'The agent cannot run.');
      jobs.finishRun(runId, 'failed', null, error);
      const outcome: RunOutcome = { runId, status: 'failed' };
      this.afterRun(job, runId, null, 'failed', null, error);
      return { runId, sessionId: null, done: Promise.resolve(outcome) };
    }
    const runContext = job.run_context ? (JSON.parse(job.run_context) as object) : null;
    const claimed = this.deps.db.transaction(() => {
      const sessionId = sessionRows.createBackgroundSession({
        // The title labels its Inbox items: `CronJob: <title>` for a scheduled run (approval/pending.ts), `Task: …` here.
        title: job.kind === 'cron' ? job.title : `Task: ${job.title}`,
        source: job.kind === 'cron' ? 'cron' : 'task',
        agentId: job.agent_id,
        runContext,
        model: model.selection === 'auto' ? null : model.selection,
        parentSessionId: job.kind === 'async' ? job.parent_session_id : null,
      });
      const runId = jobs.startRun(job.id, sessionId, trigger);
      if (runId === null) throw new AlreadyRunning();
      return { sessionId, runId };
    });
    let ids: { sessionId: number; runId: number };
    try {
      ids = claimed();
    } catch (error) {
      if (error instanceof AlreadyRunning) return null;
      throw error;
    }
    const { sessionId, runId } = ids;
    this.changed();
    const done = this.deps.sessions
      .runPrompt(sessionId, job.prompt)
      .catch((error: unknown) => {
        this.deps.log('a background run failed to start', { job: job.id, error: String(error) });
        return 'failed' as const;
      })
      .then((result) => this.settleRun(job, runId, sessionId, result));
    this.live.set(runId, done);
    void done.finally(() => this.live.delete(runId));
    return { runId, sessionId, done };
  }

  /** Waits for a run started by this process (tests). */
  async settled(runId: number): Promise<RunOutcome | null> {
    return (await this.live.get(runId)) ?? null;
  }

  private settleRun(job: JobRow, runId: number, sessionId: number, result: TurnResult): RunOutcome {
    // Quitting: the run stays `running` in the database, so the next start re-runs it (an interruption).
    if (this.disposed) return { runId, status: 'interrupted' };
    const last = this.deps.sessionRows.lastMessage(sessionId);
    const answer = last && last.role === 'assistant' && last.content.trim() ? last.content : null;
    const status: RunOutcome['status'] =
      result === 'done' ? 'success' : result === 'cancelled' ? 'cancelled' : 'failed';
    const error =
      result === 'done'
        ? null
        : result === 'cancelled'
          ? 'Stopped before it finished.'
          : result === 'exhausted'
            ? 'Stopped after the most tool rounds a turn may take, without a final answer.'
            : 'The run failed (its model request failed or the turn broke off); its session shows why.';
    if (!this.deps.jobs.finishRun(runId, status, answer, error)) return { runId, status }; // deleted meanwhile
    this.afterRun(job, runId, sessionId, status, answer, error);
    return { runId, status };
  }

  /** Where a run's outcome goes: an async task's parent, a cron job's home session. */
  private afterRun(
    job: JobRow,
    runId: number,
    sessionId: number | null,
    status: RunOutcome['status'],
    answer: string | null,
    error: string | null,
  ): void {
    this.changed();
    if (job.kind === 'async') {
      if (job.parent_session_id === null || !this.deps.sessionRows.getSession(job.parent_session_id)) return;
      const body = {
        type: 'task_completed',
        task_id: job.id,
        title: job.title,
        status,
        result: answer ?? error,
        session_id: sessionId,
      };
      void this.deps.sessions
        .deliverResult(job.parent_session_id, TN.READ_AGENT_RESULT, JSON.stringify(body))
        .catch((e: unknown) => this.deps.log('delivering a task result failed', { job: job.id, error: String(e) }));
      return;
    }
    if (status === 'cancelled') return; // the person stopped it: they know
    this.deps.notifications.push(this.deps.homeOf(job), {
      source: `Scheduled job: ${job.title}`,
      event_type: status === 'success' ? 'job_succeeded' : 'job_failed',
      summary: (answer ?? error ?? '').slice(0, 4_000),
      event_time: new Date(this.now()).toISOString(),
      refs:
        sessionId === null
          ? [`job:${job.id}`, `run:${runId}`]
          : [`job:${job.id}`, `run:${runId}`, `session:${sessionId}`],
    });
  }

  /** Stops a running run (its session's turn, its sub-agents and their processes). */
  stopRun(run: RunRow): boolean {
    return run.status === 'running' && run.session_id !== null ? this.deps.sessions.stop(run.session_id) : false;
  }

  /** Re-arms the timer for the earliest due job (at most `TICK_MS` away). */
  arm(): void {
    if (this.disposed) return;
    if (this.timer !== null) this.timers.clear(this.timer);
    const at = this.deps.jobs.earliestNextRun();
    const delay = at === null ? TICK_MS : Math.min(TICK_MS, Math.max(0, at - this.now()));
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.tick();
    }, delay);
  }

  /** Deletes a job, its runs and their sessions; a running run is stopped and waited for first. */
  async deleteJob(job: JobRow): Promise<void> {
    const running = this.deps.jobs.runningRunOf(job.id);
    if (running?.session_id != null) {
      this.deps.sessions.stop(running.session_id);
      await this.deps.sessions.settle(running.session_id);
    }
    const sessions = this.deps.jobs.delete(job.id);
    if (sessions.length) this.deps.sessionRows.deleteBackgroundSessions(sessions);
    this.arm();
    this.changed();
  }

  notifyChanged(): void {
    this.changed();
  }

  private changed(): void {
    try {
      this.deps.onChanged?.();
    } catch (error) {
      this.deps.log('a scheduler listener threw', { error: String(error) });
    }
  }

  /** Stops ticking; running runs are left `running` (re-run at the next start) and their turns stopped by the sessions. */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
  }
}

class AlreadyRunning extends Error {}

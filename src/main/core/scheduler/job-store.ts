/**
 * The one writer of `scheduled_jobs` and `job_runs` (docs/scheduler.md). Every write is one statement or one
 * transaction; statements are prepared once; times are epoch milliseconds.
 * - A run is started by inserting its `running` row; the partial unique index refuses a second running run of
 *   the same job, so two ticks (or a tick and "Run now") can never run one job twice at once: `startRun` answers null.
 * - Retention: finished runs older than `RUN_RETENTION_MS` are deleted, and so are disabled one-shot jobs (a
 *   one-shot cron job that ran, an async task that ended) idle for as long; `purge` returns the sessions of the
 *   deleted runs so their owner (the session store) can delete them too.
 */
import type { Db } from '../db/database';

export const RUN_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export type JobKind = 'cron' | 'async';
export type RunTrigger = 'schedule' | 'manual' | 'rerun' | 'async';
export type RunStatus = 'running' | 'success' | 'failed' | 'cancelled' | 'interrupted';

export interface JobRow {
  id: number;
  kind: JobKind;
  title: string;
  agent_id: string;
  prompt: string;
  client: string | null;
  cron: string | null;
  single_run: number;
  enabled: number;
  next_run_at: number | null;
  parent_session_id: number | null;
  parent_tool_call_id: string | null;
  run_context: string | null;
  created_at: number;
  updated_at: number;
}

export interface RunRow {
  id: number;
  job_id: number;
  session_id: number | null;
  trigger: RunTrigger;
  status: RunStatus;
  final_response: string | null;
  error: string | null;
  started_at: number;
  finished_at: number | null;
}

export interface NewJob {
  kind: JobKind;
  title: string;
  agentId: string;
  prompt: string;
  client?: string | null;
  cron?: string | null;
  singleRun: boolean;
  enabled: boolean;
  nextRunAt: number | null;
  parentSessionId: number | null;
  parentToolCallId?: string | null;
  runContext: object | null;
}

export class JobStore {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {
    this.q = {
      insert: db.prepare(
        `INSERT INTO scheduled_jobs (kind, title, agent_id, prompt, client, cron, single_run, enabled, next_run_at, parent_session_id, parent_tool_call_id, run_context, created_at, updated_at)
         VALUES (@kind, @title, @agentId, @prompt, @client, @cron, @singleRun, @enabled, @nextRunAt, @parentSessionId, @parentToolCallId, @runContext, @now, @now)`,
      ),
      get: db.prepare('SELECT * FROM scheduled_jobs WHERE id = ?'),
      byTitle: db.prepare('SELECT * FROM scheduled_jobs WHERE title = ? AND kind = ? ORDER BY id'),
      list: db.prepare('SELECT * FROM scheduled_jobs WHERE kind = ? ORDER BY id'),
      setEnabled: db.prepare('UPDATE scheduled_jobs SET enabled = ?, next_run_at = ?, updated_at = ? WHERE id = ?'),
      setNextRun: db.prepare('UPDATE scheduled_jobs SET next_run_at = ?, updated_at = ? WHERE id = ?'),
      delete: db.prepare('DELETE FROM scheduled_jobs WHERE id = ?'),
      due: db.prepare(
        `SELECT j.* FROM scheduled_jobs j WHERE j.kind = 'cron' AND j.enabled = 1 AND j.next_run_at IS NOT NULL AND j.next_run_at <= ?
         ORDER BY j.next_run_at, j.id`,
      ),
      earliest: db.prepare(
        "SELECT min(next_run_at) AS at FROM scheduled_jobs WHERE kind = 'cron' AND enabled = 1 AND next_run_at IS NOT NULL",
      ),
      insertRun: db.prepare(
        "INSERT INTO job_runs (job_id, session_id, trigger, status, started_at) VALUES (?, ?, ?, 'running', ?)",
      ),
      finishRun: db.prepare(
        "UPDATE job_runs SET status = ?, final_response = ?, error = ?, finished_at = ? WHERE id = ? AND status = 'running'",
      ),
      getRun: db.prepare('SELECT * FROM job_runs WHERE id = ?'),
      runBySession: db.prepare('SELECT * FROM job_runs WHERE session_id = ? ORDER BY id DESC LIMIT 1'),
      running: db.prepare("SELECT * FROM job_runs WHERE status = 'running' ORDER BY id"),
      runningOf: db.prepare("SELECT * FROM job_runs WHERE job_id = ? AND status = 'running'"),
      runs: db.prepare('SELECT * FROM job_runs WHERE job_id = ? ORDER BY id DESC LIMIT ?'),
      oldRuns: db.prepare('SELECT id, session_id FROM job_runs WHERE finished_at IS NOT NULL AND finished_at < ?'),
      deleteRun: db.prepare('DELETE FROM job_runs WHERE id = ?'),
      idleOneShots: db.prepare(
        `SELECT j.id FROM scheduled_jobs j WHERE j.single_run = 1 AND j.enabled = 0 AND j.updated_at < @cutoff
           AND NOT EXISTS (SELECT 1 FROM job_runs r WHERE r.job_id = j.id AND (r.status = 'running' OR r.finished_at >= @cutoff))`,
      ),
      sessionsOfJob: db.prepare('SELECT session_id FROM job_runs WHERE job_id = ? AND session_id IS NOT NULL'),
    };
  }

  create(job: NewJob): number {
    const info = this.q.insert.run({
      kind: job.kind,
      title: job.title,
      agentId: job.agentId,
      prompt: job.prompt,
      client: job.client ?? null,
      cron: job.cron ?? null,
      singleRun: job.singleRun ? 1 : 0,
      enabled: job.enabled ? 1 : 0,
      nextRunAt: job.nextRunAt,
      parentSessionId: job.parentSessionId,
      parentToolCallId: job.parentToolCallId ?? null,
      runContext: job.runContext ? JSON.stringify(job.runContext) : null,
      now: this.now(),
    });
    return Number(info.lastInsertRowid);
  }

  get(id: number): JobRow | undefined {
    return this.q.get.get(id) as JobRow | undefined;
  }

  list(kind: JobKind): JobRow[] {
    return this.q.list.all(kind) as JobRow[];
  }

  /** A cron job by its id or its exact title; a title two jobs share is refused by naming both ids. */
  find(ref: string | number): JobRow | { error: string } {
    const asId = typeof ref === 'number' ? ref : /^\d+$/.test(ref.trim()) ? Number(ref.trim()) : null;
    if (asId !== null) {
      const job = this.get(asId);
      return job && job.kind === 'cron'
        ? job
        : { error: `There is no scheduled job with id ${asId}. Call list_items with type "cron" to see them.` };
    }
    const rows = this.q.byTitle.all(String(ref), 'cron') as JobRow[];
    if (rows.length === 1) return rows[0]!;
    if (rows.length > 1)
      return {
        error: `Several scheduled jobs are titled "${ref}" (ids ${rows.map((r) => r.id).join(', ')}); name one by its id.`,
      };
    return { error: `There is no scheduled job titled "${ref}". Call list_items with type "cron" to see them.` };
  }

  setEnabled(id: number, enabled: boolean, nextRunAt: number | null): void {
    this.q.setEnabled.run(enabled ? 1 : 0, nextRunAt, this.now(), id);
  }

  setNextRun(id: number, nextRunAt: number | null): void {
    this.q.setNextRun.run(nextRunAt, this.now(), id);
  }

  /** Deletes the job and its runs; returns the runs' sessions (the caller deletes those it owns). */
  delete(id: number): number[] {
    return this.db.transaction(() => {
      const sessions = (this.q.sessionsOfJob.all(id) as { session_id: number }[]).map((r) => r.session_id);
      this.q.delete.run(id);
      return sessions;
    })();
  }

  /** Enabled cron jobs whose time has come (running ones included: the caller skips them and says so). */
  due(now: number): JobRow[] {
    return this.q.due.all(now) as JobRow[];
  }

  /** When the next enabled cron job comes due; null when none will. */
  earliestNextRun(): number | null {
    return (this.q.earliest.get() as { at: number | null }).at;
  }

  /** The run's `running` row, or null when the job already has one (never twice at once). */
  startRun(jobId: number, sessionId: number | null, trigger: RunTrigger): number | null {
    try {
      return Number(this.q.insertRun.run(jobId, sessionId, trigger, this.now()).lastInsertRowid);
    } catch (error) {
      if (/UNIQUE constraint failed/.test(String(error))) return null;
      throw error;
    }
  }

  /** Ends a running run; false when it had already ended (a run is finished once). */
  finishRun(
    runId: number,
    status: Exclude<RunStatus, 'running'>,
    finalResponse: string | null,
    error: string | null,
  ): boolean {
    return this.q.finishRun.run(status, finalResponse, error, this.now(), runId).changes === 1;
  }

  getRun(id: number): RunRow | undefined {
    return this.q.getRun.get(id) as RunRow | undefined;
  }

  runOfSession(sessionId: number): RunRow | undefined {
    return this.q.runBySession.get(sessionId) as RunRow | undefined;
  }

  runningRuns(): RunRow[] {
    return this.q.running.all() as RunRow[];
  }

  runningRunOf(jobId: number): RunRow | undefined {
    return this.q.runningOf.get(jobId) as RunRow | undefined;
  }

  runs(jobId: number, limit = 20): RunRow[] {
    return this.q.runs.all(jobId, limit) as RunRow[];
  }

  /** Deletes finished runs and idle one-shot jobs older than the retention; returns the deleted runs' sessions. */
  purge(now: number = this.now()): { runs: number; jobs: number; sessions: number[] } {
    const cutoff = now - RUN_RETENTION_MS;
    return this.db.transaction(() => {
      const sessions: number[] = [];
      const old = this.q.oldRuns.all(cutoff) as { id: number; session_id: number | null }[];
      for (const run of old) {
        this.q.deleteRun.run(run.id);
        if (run.session_id !== null) sessions.push(run.session_id);
      }
      const idle = (this.q.idleOneShots.all({ cutoff }) as { id: number }[]).map((r) => r.id);
      for (const id of idle) sessions.push(...this.delete(id));
      return { runs: old.length, jobs: idle.length, sessions };
    })();
  }
}

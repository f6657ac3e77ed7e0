/**
 * The scheduler (docs/scheduler.md): `scheduled_jobs` holds every piece of background work, a cron job (`kind`
 * `cron`: a pattern, `next_run_at`, enabled or not) or an async task (`kind` `async`: one run, started at once);
 * `job_runs` holds each run of a job (its fresh session, outcome, final answer or error). "Never twice at once" is
 * the database's rule, not only the code's: at most one `running` run per job (a partial unique index).
 * Both tables have one writer, scheduler/job-store.ts.
 */
import type { Migration } from '../migrate';

export const schedulerSchema: Migration = {
  version: 110,
  name: 'scheduler',
  up(db) {
    db.exec(`
      CREATE TABLE scheduled_jobs (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('cron', 'async')),
        title TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        prompt TEXT NOT NULL,
        client TEXT,
        cron TEXT,
        single_run INTEGER NOT NULL DEFAULT 0,
        enabled INTEGER NOT NULL DEFAULT 0,
        next_run_at INTEGER,
        parent_session_id INTEGER REFERENCES chat_sessions(id) ON DELETE SET NULL,
        parent_tool_call_id TEXT,
        run_context TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX scheduled_jobs_due ON scheduled_jobs(next_run_at) WHERE enabled = 1 AND kind = 'cron';

      CREATE TABLE job_runs (
        id INTEGER PRIMARY KEY,
        job_id INTEGER NOT NULL REFERENCES scheduled_jobs(id) ON DELETE CASCADE,
        session_id INTEGER REFERENCES chat_sessions(id) ON DELETE SET NULL,
        trigger TEXT NOT NULL CHECK (trigger IN ('schedule', 'manual', 'rerun', 'async')),
        status TEXT NOT NULL CHECK (status IN ('running', 'success', 'failed', 'cancelled', 'interrupted')),
        final_response TEXT,
        error TEXT,
        started_at INTEGER NOT NULL,
        finished_at INTEGER
      );
      CREATE UNIQUE INDEX job_runs_one_running ON job_runs(job_id) WHERE status = 'running';
      CREATE INDEX job_runs_job ON job_runs(job_id, id);
      CREATE INDEX job_runs_finished ON job_runs(finished_at) WHERE finished_at IS NOT NULL;
    `);
  },
};

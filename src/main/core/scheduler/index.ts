/**
 * The scheduler's services, built in one place for the composition root (docs/scheduler.md): the job store (the
 * one writer of `scheduled_jobs` and `job_runs`), the notification batcher, the scheduler (tick, runs, recovery,
 * retention) and the schedules (what the tools and the Schedules page do with jobs).
 */
import type { AgentRegistry } from '../agents/agent-registry';
import type { Db } from '../db/database';
import { TN } from '../../../shared/tool-names';
import type { JobRow, JobStore } from './job-store';
import { NotificationBatcher } from './notifications';
import { Scheduler, type BackgroundSessions, type RunSessionRows, type Timers } from './scheduler';
import { Schedules } from './schedules';

export interface SchedulerServicesDeps {
  db: Db;
  jobs: JobStore;
  sessionRows: RunSessionRows;
  sessions: BackgroundSessions & { createSession(title?: string): number; listSessions(): { id: number }[] };
  agents: AgentRegistry;
  resolveModel: (arg: string) => { ok: boolean; selection: string; message: string };
  waitingOn: (sessionId: number) => number;
  log: (message: string, fields?: Record<string, unknown>) => void;
  onChanged?: () => void;
  now?: () => number;
  timers?: Timers;
  batchMs?: number;
}

export interface SchedulerServices {
  jobs: JobStore;
  scheduler: Scheduler;
  schedules: Schedules;
  notifications: NotificationBatcher;
  dispose(): void;
}

const REAL_TIMERS: Timers = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export function createSchedulerServices(deps: SchedulerServicesDeps): SchedulerServices {
  const timers = deps.timers ?? REAL_TIMERS;
  const notifications = new NotificationBatcher({
    deliver: (sessionId, batch) => deps.sessions.deliverResult(sessionId, TN.READ_NOTIFICATION, batch),
    log: deps.log,
    timers,
    batchMs: deps.batchMs,
  });
  /** A job's home: the chat it was created from while it exists, else the latest chat, else a new one. */
  const homeOf = (job: JobRow): number => {
    const parent = job.parent_session_id === null ? undefined : deps.sessionRows.getSession(job.parent_session_id);
    if (parent && parent.is_interactive === 1) return parent.id;
    return deps.sessions.listSessions()[0]?.id ?? deps.sessions.createSession('Notifications');
  };
  const scheduler = new Scheduler({
    db: deps.db,
    jobs: deps.jobs,
    sessionRows: deps.sessionRows,
    sessions: deps.sessions,
    agents: deps.agents,
    resolveModel: deps.resolveModel,
    notifications,
    homeOf,
    log: deps.log,
    onChanged: deps.onChanged,
    now: deps.now,
    timers,
  });
  const schedules = new Schedules({
    jobs: deps.jobs,
    scheduler,
    agents: deps.agents,
    resolveModel: deps.resolveModel,
    notifications,
    homeOf,
    waitingOn: deps.waitingOn,
    now: deps.now,
  });
  return {
    jobs: deps.jobs,
    scheduler,
    schedules,
    notifications,
    dispose() {
      scheduler.dispose();
      notifications.dispose();
    },
  };
}

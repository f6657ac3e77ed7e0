/**
 * The Schedules page (docs/scheduler.md): every scheduled job with its pattern, next run (local time), last
 * outcome and state, and the actions on it: enable (after its permission envelope is shown), disable, run now,
 * delete, stop a running run, open a run's session; below, the async tasks the agents started. Everything is read
 * from the core (`schedules:*`) and re-read on every `schedules` and `inbox` event; this page holds view state only.
 */
import { useCallback, useEffect, useState } from 'react';
import type { JobView } from '../../../../shared/contract/schedules';
import { skald } from '../../bridge/skald';
import { EnvelopePanel } from './EnvelopePanel';
import { RunHistory, RunStatusBadge, when } from './RunHistory';
import './schedules.css';

export function SchedulesPage({ onOpenSession }: { onOpenSession: (sessionId: number) => void }) {
  const [jobs, setJobs] = useState<JobView[] | null>(null);
  const [tasks, setTasks] = useState<JobView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    skald.schedules.list({}).then(
      (r) => {
        setJobs(r.jobs);
        setTasks(r.tasks);
      },
      (e: Error) => setError(e.message),
    );
  }, []);
  useEffect(() => {
    reload();
    const offSchedules = skald.on.schedules(reload);
    const offInbox = skald.on.inbox(reload);
    return () => {
      offSchedules();
      offInbox();
    };
  }, [reload]);
  const act = (work: Promise<unknown>) => {
    setError(null);
    work.then(reload, (e: Error) => setError(e.message));
  };

  return (
    <div className="page schedules-page" data-testid="schedules-page">
      <header className="page-head">
        <h1>Schedules</h1>
        <p className="muted">
          Jobs your agents scheduled. Each run starts a fresh background session with the job's prompt; what its
          permission group does not allow waits for you in the Inbox. A job the agent creates is off until you turn it
          on.
        </p>
      </header>
      {error && (
        <div className="banner banner-error" role="alert" data-testid="schedules-error">
          {error}
        </div>
      )}
      {jobs === null ? (
        <p className="muted">Loading…</p>
      ) : jobs.length === 0 ? (
        <div className="sec-card empty muted" data-testid="schedules-empty">
          No scheduled jobs yet. Ask the agent to do something on a schedule ("every weekday at 9, summarise the new
          issues"); it saves the job here, off.
        </div>
      ) : (
        jobs.map((job) => <JobCard key={job.id} job={job} act={act} onOpenSession={onOpenSession} />)
      )}
      {tasks.length > 0 && (
        <section className="sec-card" data-testid="tasks-card">
          <div className="sec-card-head">
            <h2>Background tasks</h2>
            <span className="small muted">
              Started by an agent with execute_task (async); each result went back to its chat.
            </span>
          </div>
          <ul className="task-list">
            {tasks.map((t) => (
              <li key={t.id} className="task-row" data-testid={`task-${t.id}`}>
                <span className="task-title">{t.title}</span>
                <span className="small muted">{t.agent_id}</span>
                {t.last_run && <RunStatusBadge run={t.last_run} />}
                <span className="small muted">{t.last_run ? when(t.last_run.started_at) : ''}</span>
                <span className="header-spacer" />
                {t.last_run?.status === 'running' && (
                  <button
                    className="ghost danger"
                    onClick={() => act(skald.schedules.stopRun({ runId: t.last_run!.id }))}
                  >
                    Stop
                  </button>
                )}
                {t.last_run?.session_id != null && (
                  <button className="ghost" onClick={() => onOpenSession(t.last_run!.session_id!)}>
                    Open session
                  </button>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function JobCard({
  job,
  act,
  onOpenSession,
}: {
  job: JobView;
  act: (p: Promise<unknown>) => void;
  onOpenSession: (id: number) => void;
}) {
  const [panel, setPanel] = useState<'none' | 'envelope' | 'enable' | 'runs'>('none');
  const [confirmDelete, setConfirmDelete] = useState(false);
  const run = job.last_run;
  const running = run?.status === 'running';
  const toggle = (p: typeof panel) => setPanel((now) => (now === p ? 'none' : p));
  return (
    <section className={`sec-card job-card ${job.enabled ? 'is-enabled' : ''}`} data-testid={`job-${job.id}`}>
      <div className="job-head">
        <h2 className="job-title">{job.title}</h2>
        <span className={`badge ${job.enabled ? 'badge-allow' : 'badge-off'}`} data-testid="job-state">
          {job.enabled ? 'On' : 'Off'}
        </span>
        <span className="header-spacer" />
        {job.enabled ? (
          <button
            data-testid="job-disable"
            onClick={() => act(skald.schedules.setEnabled({ jobId: job.id, enabled: false }))}
          >
            Turn off
          </button>
        ) : (
          <button className="primary" data-testid="job-enable" onClick={() => setPanel('enable')}>
            Turn on…
          </button>
        )}
        <button
          data-testid="job-run-now"
          disabled={running}
          onClick={() => act(skald.schedules.runNow({ jobId: job.id }))}
        >
          Run now
        </button>
        {confirmDelete ? (
          <>
            <button
              className="danger"
              data-testid="job-delete-confirm"
              onClick={() => act(skald.schedules.delete({ jobId: job.id }))}
            >
              Delete job and its runs
            </button>
            <button className="ghost" onClick={() => setConfirmDelete(false)}>
              Keep
            </button>
          </>
        ) : (
          <button className="ghost danger" data-testid="job-delete" onClick={() => setConfirmDelete(true)}>
            Delete
          </button>
        )}
      </div>
      <dl className="job-facts">
        <dt>When</dt>
        <dd>
          <code className="mono">{job.cron}</code>
          {job.single_run ? <span className="small muted"> (once)</span> : null}
        </dd>
        <dt>Next run</dt>
        <dd data-testid="job-next-run">
          {job.next_run_at !== null ? (
            when(job.next_run_at)
          ) : (
            <span className="muted">{job.enabled ? 'no time left' : 'off'}</span>
          )}
        </dd>
        <dt>Agent</dt>
        <dd>
          {job.agent_id} <span className="small muted">· permission group {job.permission_group}</span>
        </dd>
        <dt>Last run</dt>
        <dd data-testid="job-last-run">
          {run ? (
            <>
              <RunStatusBadge run={run} /> <span className="small muted">{when(run.started_at)}</span>
              {run.error && run.status !== 'running' && <span className="small run-error"> {run.error}</span>}
              {run.session_id !== null && (
                <button
                  className="ghost link"
                  data-testid="job-open-run"
                  onClick={() => onOpenSession(run.session_id!)}
                >
                  Open session
                </button>
              )}
              {running && (
                <button
                  className="ghost danger"
                  data-testid="job-stop"
                  onClick={() => act(skald.schedules.stopRun({ runId: run.id }))}
                >
                  Stop
                </button>
              )}
            </>
          ) : (
            <span className="muted">never ran</span>
          )}
        </dd>
      </dl>
      {run && run.waiting > 0 && (
        <div className="banner banner-warn" data-testid="job-waiting">
          This run is waiting for you: {run.waiting} {run.waiting === 1 ? 'request' : 'requests'} in the Inbox. Nothing
          it needs approval for happens until you answer.
        </div>
      )}
      <details className="job-prompt">
        <summary className="small muted">Prompt</summary>
        <pre>{job.prompt}</pre>
      </details>
      <div className="job-links">
        <button
          className="ghost link"
          aria-expanded={panel === 'envelope' || panel === 'enable'}
          data-testid="job-envelope"
          onClick={() => toggle('envelope')}
        >
          What it may do without asking
        </button>
        <button
          className="ghost link"
          aria-expanded={panel === 'runs'}
          data-testid="job-runs"
          onClick={() => toggle('runs')}
        >
          Run history
        </button>
      </div>
      {(panel === 'envelope' || panel === 'enable') && (
        <EnvelopePanel
          jobId={job.id}
          confirm={
            panel === 'enable' && !job.enabled
              ? () => act(skald.schedules.setEnabled({ jobId: job.id, enabled: true }).then(() => setPanel('none')))
              : null
          }
          onCancel={() => setPanel('none')}
        />
      )}
      {panel === 'runs' && <RunHistory jobId={job.id} onOpenSession={onOpenSession} />}
    </section>
  );
}

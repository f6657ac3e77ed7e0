/**
 * A job's recent runs (docs/scheduler.md "Jobs and runs"): trigger, outcome, when, error, and a link to the run's
 * session. Runs older than 7 days are gone (retention), so the list says so.
 */
import { useEffect, useState } from 'react';
import type { RunView } from '../../../../shared/contract/schedules';
import { skald } from '../../bridge/skald';

export const when = (ms: number) =>
  new Date(ms).toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

const LABEL: Record<RunView['status'], string> = {
  running: 'running',
  success: 'succeeded',
  failed: 'failed',
  cancelled: 'stopped',
  interrupted: 'interrupted',
};
const CLASS: Record<RunView['status'], string> = {
  running: 'badge-require',
  success: 'badge-allow',
  failed: 'badge-deny',
  cancelled: 'badge-off',
  interrupted: 'badge-require',
};
const TRIGGER: Record<RunView['trigger'], string> = {
  schedule: 'on schedule',
  manual: 'run now',
  rerun: 're-run after a stop',
  async: 'task',
};

export function RunStatusBadge({ run }: { run: RunView }) {
  const label = run.status === 'running' && run.waiting > 0 ? 'waiting for you' : LABEL[run.status];
  return (
    <span className={`badge ${CLASS[run.status]}`} data-testid="run-status">
      {label}
    </span>
  );
}

export function RunHistory({ jobId, onOpenSession }: { jobId: number; onOpenSession: (id: number) => void }) {
  const [runs, setRuns] = useState<RunView[] | null>(null);
  useEffect(() => {
    const load = () =>
      void skald.schedules.runs({ jobId, limit: 20 }).then(
        (r) => setRuns(r.runs),
        () => setRuns([]),
      );
    load();
    return skald.on.schedules(load);
  }, [jobId]);
  if (!runs) return <p className="muted small">Loading…</p>;
  if (!runs.length) return <p className="muted small">No runs in the last 7 days.</p>;
  return (
    <table className="run-table" data-testid="run-history">
      <thead>
        <tr>
          <th>Started</th>
          <th>How</th>
          <th>Outcome</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td className="small">{when(r.started_at)}</td>
            <td className="small muted">{TRIGGER[r.trigger]}</td>
            <td>
              <RunStatusBadge run={r} />
              {r.error && r.status !== 'running' ? <span className="small run-error"> {r.error}</span> : null}
            </td>
            <td>
              {r.session_id !== null && (
                <button className="ghost link" onClick={() => onOpenSession(r.session_id!)}>
                  Open session
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

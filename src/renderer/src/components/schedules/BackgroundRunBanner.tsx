/**
 * Above a background run's session in the chat (docs/scheduler.md): which job or task it is a run of, its state,
 * and that nobody watches it: its approvals wait in the Inbox. Nothing for a person's own chat.
 */
import { useEffect, useState } from 'react';
import type { CallResponse } from '../../../../shared/contract/index';
import { skald } from '../../bridge/skald';
import { RunStatusBadge, when } from './RunHistory';

type Run = NonNullable<CallResponse<'schedules:runOfSession'>['run']>;

export function BackgroundRunBanner({ sessionId }: { sessionId: number }) {
  const [run, setRun] = useState<Run | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      void skald.schedules.runOfSession({ sessionId }).then(
        (r) => live && setRun(r.run),
        () => {},
      );
    load();
    const off = skald.on.schedules(load);
    return () => {
      live = false;
      off();
    };
  }, [sessionId]);
  if (!run) return null;
  return (
    <div className="banner banner-info background-run" data-testid="background-run-banner">
      {run.kind === 'cron' ? 'A run of the scheduled job' : 'The background task'} <strong>{run.job_title}</strong> ·{' '}
      <RunStatusBadge run={run.run} />{' '}
      <span className="small muted">
        started {when(run.run.started_at)}. Nobody watches it: its approvals wait in the Inbox.
      </span>
    </div>
  );
}

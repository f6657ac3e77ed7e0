/**
 * A job's permission envelope (docs/scheduler.md "Approvals when nobody is there"): the allow rules of its
 * permission group that apply to its runs (what it may do without asking), the deny rules (never), and that
 * everything else waits in the Inbox. Shown before a job is turned on; `confirm` turns it on.
 */
import { useEffect, useState } from 'react';
import type { Envelope } from '../../../../shared/contract/schedules';
import { skald } from '../../bridge/skald';

type Line = Envelope['allowed'][number];

/** A rule about some paths or commands only (shown one per line); the others are whole tools (shown as chips). */
const isScoped = (r: Line) => r.path_pattern !== null || r.command_pattern !== null;
const describe = (r: Line) =>
  [r.tool_pattern, r.command_pattern ? `$ ${r.command_pattern}` : null, r.path_pattern ? `on ${r.path_pattern}` : null]
    .filter(Boolean)
    .join(' ');

export function EnvelopePanel({
  jobId,
  confirm,
  onCancel,
}: {
  jobId: number;
  confirm: (() => void) | null;
  onCancel: () => void;
}) {
  const [envelope, setEnvelope] = useState<Envelope | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    skald.schedules.envelope({ jobId }).then(setEnvelope, (e: Error) => setError(e.message));
  }, [jobId]);
  if (error) return <div className="banner banner-error">{error}</div>;
  if (!envelope) return <p className="muted small">Loading…</p>;
  return (
    <div className="envelope" data-testid="envelope">
      <p className="small">
        Runs as <strong>{envelope.agent_name}</strong> in <code className="mono">{envelope.working_directory}</code>,
        judged by the permission group <strong>{envelope.group_name}</strong>.
        {envelope.agent_tools ? <> The agent is limited to: {envelope.agent_tools.join(', ')}.</> : null}
      </p>
      <div className="envelope-cols">
        <div>
          <h3>
            <span className="badge badge-allow">allow</span> Without asking
          </h3>
          <ul data-testid="envelope-files">
            <li>
              read files in{' '}
              {envelope.reads_in.map((d, i) => (
                <code key={d} className="mono">
                  {i ? ', ' : ''}
                  {d}
                </code>
              ))}
            </li>
            {envelope.writes_in.length ? (
              <li>
                write files in{' '}
                {envelope.writes_in.map((d, i) => (
                  <code key={d} className="mono">
                    {i ? ', ' : ''}
                    {d}
                  </code>
                ))}
              </li>
            ) : null}
          </ul>
          {envelope.allowed.length ? (
            <ul data-testid="envelope-allowed">
              {envelope.allowed.filter(isScoped).map((r, i) => (
                <li key={i} className="mono">
                  {describe(r)}
                </li>
              ))}
              {envelope.allowed.some((r) => !isScoped(r)) && (
                <li>
                  any call of{' '}
                  {envelope.allowed
                    .filter((r) => !isScoped(r))
                    .map((r) => (
                      <code key={r.tool_pattern} className="mono chip">
                        {r.tool_pattern}
                      </code>
                    ))}
                </li>
              )}
            </ul>
          ) : (
            <p className="muted small">No allow rules: every other call waits for you.</p>
          )}
        </div>
        <div>
          <h3>
            <span className="badge badge-deny">deny</span> Never
          </h3>
          {envelope.denied.length ? (
            <ul data-testid="envelope-denied">
              {envelope.denied.map((r, i) => (
                <li key={i} className="mono">
                  {describe(r)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">No deny rules (the locked guards still apply).</p>
          )}
        </div>
      </div>
      <p className="small muted">
        Everything else waits for you in the Inbox, labelled with the job; nothing is approved because nobody answered.
      </p>
      {confirm && (
        <div className="row-actions">
          <button className="ghost" onClick={onCancel}>
            Cancel
          </button>
          <button className="primary" data-testid="envelope-confirm" onClick={confirm}>
            Turn on
          </button>
        </div>
      )}
    </div>
  );
}

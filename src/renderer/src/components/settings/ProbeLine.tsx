/** What a "test connection" said, in one line: connected with N models in M ms, or the reason it failed. */
import type { ProbeResult } from '../../../../shared/contract/providers';

export function ProbeLine({ result }: { result: ProbeResult | 'testing' }) {
  if (result === 'testing')
    return (
      <div className="probe muted small" role="status" data-testid="probe-result" data-ok="pending">
        Testing…
      </div>
    );
  return result.ok ? (
    <div className="probe ok-text small" role="status" data-testid="probe-result" data-ok="true">
      ✓ Connected in {result.latencyMs} ms · {result.models.length} model{result.models.length === 1 ? '' : 's'}{' '}
      available
    </div>
  ) : (
    <div className="probe error small" role="alert" data-testid="probe-result" data-ok="false">
      ✕ {result.message}
    </div>
  );
}

/** One live bypass: what it covers, when it ends (local time, live countdown), and Revoke. Card and Inbox. */
import { useState } from 'react';
import type { BypassDto } from '../../../shared/contract/approval';
import { countdownText } from '../lib/bypass-choice';
import { useNow } from '../lib/use-now';
import { approvals } from '../stores/approvals';
import { CodeLabel } from './CodeLabel';

export function BypassBadge({ bypass, prefix }: { bypass: BypassDto; prefix?: string }) {
  const now = useNow(bypass.expires_at !== null);
  const [error, setError] = useState<string | null>(null);
  if (bypass.expires_at !== null && bypass.expires_at <= now) return null;
  return (
    <div className="bypass-badge" data-testid="bypass-badge">
      <span className="bypass-dot" aria-hidden />
      <span>
        {prefix ?? 'Not asking for'} <CodeLabel text={bypass.label} />{' '}
        <span className="muted">{countdownText(bypass.expires_at, now)}</span>
      </span>
      <button className="small" onClick={() => approvals.revoke(bypass).catch((e: Error) => setError(e.message))}>
        Revoke
      </button>
      {error && <span className="error small">{error}</span>}
    </div>
  );
}

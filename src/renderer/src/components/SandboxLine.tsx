/**
 * Where an approved command runs, on its approval card (docs/approval.md "The sandbox on the card"): "runs in the
 * sandbox: writes inside <folder>, no network", or why it cannot run there in one line and how to fix it; and the
 * two choices for this call alone, "with network" (only where the sandbox runs) and "outside the sandbox". Both
 * always ask: they are never a bypass and never a rule.
 */
import type { InboxApproval } from '../../../shared/contract/inbox';
import type { SandboxChoice } from '../../../shared/contract/sandbox';
import { CodeLabel } from './CodeLabel';

const MARK: Record<NonNullable<InboxApproval['sandbox']>['state'], string> = {
  sandboxed: '▣',
  unavailable: '⚠',
  unconfined: '⚠',
  unsupported: '⚠',
};

export function SandboxLine({ line }: { line: NonNullable<InboxApproval['sandbox']> }) {
  return (
    <div className={`sandbox-line ${line.state}`} data-testid="sandbox-line" data-state={line.state}>
      <span aria-hidden="true">{MARK[line.state]} </span>
      {line.text[0]!.toUpperCase() + line.text.slice(1)}
      {line.fix && (
        <div className="small muted sandbox-fix">
          How to fix it: <CodeLabel text={line.fix} />
        </div>
      )}
    </div>
  );
}

export function SandboxChoices({
  line,
  busy,
  onChoose,
}: {
  line: NonNullable<InboxApproval['sandbox']>;
  busy: boolean;
  onChoose: (choice: SandboxChoice) => void;
}) {
  // Outside the sandbox is already how it runs (Windows, or the person's setting): no second way to say it.
  if (line.state === 'unsupported' || line.state === 'unconfined') return null;
  return (
    <fieldset className="sandbox-choice" data-testid="sandbox-choice">
      <legend>Or, for this call only (asked again next time)</legend>
      <div className="approval-actions">
        {line.state === 'sandboxed' && (
          <button data-testid="approve-network" disabled={busy} onClick={() => onChoose('network')}>
            Approve with network
          </button>
        )}
        <button
          data-testid="approve-unconfined"
          className="danger"
          disabled={busy}
          onClick={() => onChoose('unconfined')}
        >
          Approve outside the sandbox
        </button>
      </div>
      <div className="muted small">
        Outside the sandbox the command runs with your full rights: it can write anywhere you can and reach the network.
      </div>
    </fieldset>
  );
}

/**
 * The hard guards as locked rows (docs/ui.md): what each protects and why no rule, bypass or setting can lift it.
 * They are listed by the core (`approval:listGuards`); this file only adds the "why" a person reads. The rows have
 * no edit, move or delete control at all: there is nothing to click that could pretend to change them.
 */
import type { CallResponse } from '../../../../shared/contract/index';

type Guard = CallResponse<'approval:listGuards'>['guards'][number];

/** Why each guard is beyond the rules. A guard the core adds later still shows, with the general reason. */
const WHY: Record<string, string> = {
  secrets: 'Keys and passwords live there; one allowed read would put them in the model\u2019s context for good.',
  credentials: 'Keys and logins for your other accounts live there; once read, the model could send them anywhere.',
  app_data_write: 'The database holds these very rules: an agent that could write it could grant itself anything.',
  git_config: 'Git runs hooks and configured commands on its own later, outside any approval.',
  app_data_touch: 'The data folder holds your history and keys; looking into it is always your call.',
  steering_file: 'These files instruct the next agent or run code when a tool opens the folder.',
  outside_working_dir:
    'The file tools refuse such a path themselves; saying so at once spares you a question whose answer cannot matter.',
  symlink_escape: 'A link makes a path look inside the working directory while it points somewhere else.',
  unsafe_shell: 'Part of what such a command runs cannot be seen from its text, so no rule can vouch for it.',
};

function LockIcon() {
  return (
    <svg className="lock" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path
        fill="currentColor"
        d="M5 7V5a3 3 0 0 1 6 0v2h.5A1.5 1.5 0 0 1 13 8.5v5a1.5 1.5 0 0 1-1.5 1.5h-7A1.5 1.5 0 0 1 3 13.5v-5A1.5 1.5 0 0 1 4.5 7H5Zm1.5 0h3V5a1.5 1.5 0 0 0-3 0v2Z"
      />
    </svg>
  );
}

const GENERAL = 'Checked before any rule: rules, bypasses and the run context cannot lift it.';

export function LockedRows({ guards }: { guards: readonly Guard[] }) {
  return (
    <section className="sec-card" aria-labelledby="locked-title">
      <header className="sec-card-head">
        <h2 id="locked-title">Always enforced</h2>
        <span className="muted small">Checked before every rule; no rule, bypass or setting lifts them.</span>
      </header>
      <ul className="locked-list">
        {guards.map((g) => (
          <li key={g.id} className="locked-row" data-testid="locked-row" data-guard={g.id}>
            <LockIcon />
            <span className={`badge badge-${g.action}`}>{g.action === 'deny' ? 'Deny' : 'Always asks'}</span>
            <span className="locked-text">
              <strong>{g.title}</strong>
              <span className="muted">{g.description}</span>
              <span className="locked-why small">Why it is locked: {WHY[g.id] ?? GENERAL}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

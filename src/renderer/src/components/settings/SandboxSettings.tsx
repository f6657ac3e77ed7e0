/**
 * Settings → Sandbox (docs/sandbox.md): whether approved commands can run in the OS sandbox here, what it confines,
 * and, when it cannot start, why in one line and how to fix it, with the person's own choice: refuse commands (the
 * default) or run them outside it. Nothing falls back silently: that choice is the only way, and every card and
 * result says so. `SandboxNotice` is the same news for the first run.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { SandboxStatusDto } from '../../../../shared/contract/sandbox';
import { skald } from '../../bridge/skald';
import { CodeLabel } from '../CodeLabel';
import { setAppSettings, settingsStore } from '../../stores/settings-store';

/** The sandbox's status, asked once per mount (the core probes once per run). */
function useSandboxStatus(): { status: SandboxStatusDto | null; error: string | null } {
  const [status, setStatus] = useState<SandboxStatusDto | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    skald.sandbox.status({}).then(
      (s) => live && setStatus(s),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, []);
  return { status, error };
}

const ENGINE_WORDS = { bubblewrap: 'bubblewrap', seatbelt: 'macOS’s Seatbelt (sandbox-exec)' } as const;

function StatusLine({ status }: { status: SandboxStatusDto }) {
  if (status.state === 'ready')
    return (
      <div className="sandbox-status ready" data-testid="sandbox-state" data-state="ready">
        ▣ Ready: approved commands run in the sandbox ({ENGINE_WORDS[status.engine ?? 'bubblewrap']}).
      </div>
    );
  return (
    <div className="sandbox-status unavailable" data-testid="sandbox-state" data-state={status.state}>
      <div>
        ⚠ {status.state === 'unsupported' ? 'Not available here' : 'Unavailable'}: {status.reason}
      </div>
      {status.fix && (
        <div className="small" data-testid="sandbox-fix">
          How to fix it: <CodeLabel text={status.fix} /> Then restart Skald.
        </div>
      )}
    </div>
  );
}

export function SandboxSettings() {
  const { status, error } = useSandboxStatus();
  const { app } = useStore(settingsStore);
  const unconfined = app?.sandboxUnconfinedWhenUnavailable ?? false;
  return (
    <section
      className="settings-section"
      id="settings-sandbox"
      aria-labelledby="sandbox-title"
      data-testid="sandbox-settings"
    >
      <header className="section-head">
        <h2 id="sandbox-title">Sandbox</h2>
        <span className="muted small">
          Commands you approve run confined, so a wrong approval stays in the working folder.
        </span>
      </header>
      <div className="setting-row">
        <div className="setting-text">
          <strong>Status</strong>
          {status ? <StatusLine status={status} /> : <span className="muted small">{error ?? 'Checking…'}</span>}
        </div>
      </div>
      <div className="setting-row">
        <div className="setting-text">
          <strong>What a sandboxed command may do</strong>
          <ul className="sandbox-confines small" data-testid="sandbox-confines">
            {(status?.confines ?? []).map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <span className="muted small">
            An approval card offers, for one call, “with network” and “outside the sandbox”; a rule on the Security page
            can grant network to a command pattern. A bypass never lifts the sandbox.
          </span>
        </div>
      </div>
      {status?.state !== 'unsupported' && (
        <div className="setting-row">
          <div className="setting-text">
            <strong>When the sandbox cannot start</strong>
            <span className="muted small">
              {status?.state === 'unavailable'
                ? 'It cannot start now. '
                : 'It can start now; this matters only if that changes. '}
              Commands are refused unless you choose to run them outside the sandbox, with your full rights. Each card
              and result then says so.
            </span>
          </div>
          <div className="setting-control radio-row" role="radiogroup" aria-label="When the sandbox cannot start">
            <label className={`radio-choice${unconfined ? '' : ' is-on'}`}>
              <input
                type="radio"
                name="sandbox-unavailable"
                data-testid="sandbox-refuse"
                checked={!unconfined}
                onChange={() => void setAppSettings({ sandboxUnconfinedWhenUnavailable: false })}
              />
              Refuse commands
            </label>
            <label className={`radio-choice${unconfined ? ' is-on' : ''}`}>
              <input
                type="radio"
                name="sandbox-unavailable"
                data-testid="sandbox-run-unconfined"
                checked={unconfined}
                onChange={() => void setAppSettings({ sandboxUnconfinedWhenUnavailable: true })}
              />
              Run them outside the sandbox
            </label>
          </div>
        </div>
      )}
    </section>
  );
}

/** The first run's word on the sandbox: shown only when it cannot start here, with why and how to fix it. */
export function SandboxNotice() {
  const { status } = useSandboxStatus();
  if (!status || status.state === 'ready') return null;
  return (
    <div className="banner sandbox-notice" role="status" data-testid="sandbox-notice">
      <strong>Commands cannot run in the sandbox here.</strong> {status.reason}
      {status.fix && (
        <>
          {' '}
          How to fix it: <CodeLabel text={status.fix} />
        </>
      )}{' '}
      {status.state === 'unavailable'
        ? 'Until then, commands you approve are refused; Settings → Sandbox lets you run them outside it instead.'
        : ''}
    </div>
  );
}

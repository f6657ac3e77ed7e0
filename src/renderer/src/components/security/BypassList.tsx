/**
 * Active bypasses (docs/ui.md): what each covers (the core's own words for its scope), in which session, and a
 * countdown that ticks every second. Revoke one or all; the list is re-read from the core after each revoke, on
 * Inbox events (an approval may grant one) and every 5 s.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { skald } from '../../bridge/skald';
import { activityStore, loadBypasses, revokeAllBypasses, revokeBypass } from '../../stores/security-store-activity';
import { formatLeft, secondsLeft } from './countdown';

/** `code` spans in the core's label become <code>. */
function Label({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/(`[^`]*`)/)
        .map((part, i) =>
          part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
            <code key={i}>{part.slice(1, -1)}</code>
          ) : (
            part
          ),
        )}
    </>
  );
}

export function BypassList() {
  const { bypasses, sessionTitles, error } = useStore(activityStore);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    void loadBypasses();
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    const poll = setInterval(() => void loadBypasses(), 5_000);
    const off = skald.on.inbox(() => void loadBypasses());
    return () => {
      clearInterval(tick);
      clearInterval(poll);
      off();
    };
  }, []);
  const live = bypasses.filter((b) => secondsLeft(b, now) !== 0);
  return (
    <section className="sec-card" aria-labelledby="bypass-title">
      <header className="sec-card-head">
        <h2 id="bypass-title">Active bypasses</h2>
        <span className="muted small">
          A bypass lets calls that would ask run without asking, in one session, for a while. It never lifts a deny or a
          locked guard.
        </span>
        <span className="header-spacer" />
        <button
          className="danger"
          data-testid="revoke-all"
          disabled={live.length === 0}
          onClick={() => void revokeAllBypasses()}
        >
          Revoke all
        </button>
      </header>
      {error && (
        <div className="banner banner-error" role="alert">
          {error}
        </div>
      )}
      <ul className="bypass-list">
        {live.map((b) => (
          <li key={`${b.session_id}-${b.id}`} className="bypass-row" data-testid="bypass-row">
            <span className="bypass-scope">
              <Label text={b.label} />
            </span>
            <span className="muted small">in “{sessionTitles[b.session_id] ?? `session ${b.session_id}`}”</span>
            <span className="bypass-left small" data-testid="bypass-left" aria-live="off">
              {formatLeft(secondsLeft(b, now))}
            </span>
            <button
              data-testid="revoke-bypass"
              aria-label={`Revoke the bypass for ${b.label.replace(/`/g, '')}`}
              onClick={() => void revokeBypass(b)}
            >
              Revoke
            </button>
          </li>
        ))}
        {live.length === 0 && <li className="muted empty">No bypass is active: every call that would ask, asks.</li>}
      </ul>
    </section>
  );
}

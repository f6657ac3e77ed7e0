/**
 * The decision log (docs/ui.md): every session's recent decisions, newest first, searchable by tool, path,
 * command, why and `rule N`, filterable by action; each with its why. "Make a rule from this" opens the rule form
 * pre-filled with the narrowest sensible rule (rule-logic.ts); "Test it" sends the call to "what would happen if…".
 */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { ACTION_WORDS, type DecisionLogEntry } from '../../../../shared/contract/approval';
import { activityStore, loadDecisions } from '../../stores/security-store-activity';

const time = (ms: number) =>
  new Date(ms).toLocaleString(undefined, {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

export function DecisionLog({
  onMakeRule,
  onTest,
}: {
  onMakeRule: (entry: DecisionLogEntry) => void;
  onTest: (entry: DecisionLogEntry) => void;
}) {
  const { decisions, query, action, error } = useStore(activityStore);
  useEffect(() => void loadDecisions(), []);
  useEffect(() => {
    const timer = setTimeout(() => void loadDecisions({ query }), 200);
    return () => clearTimeout(timer);
  }, [query]);
  return (
    <section className="sec-card" aria-labelledby="log-title">
      <header className="sec-card-head">
        <h2 id="log-title">Decision log</h2>
        <span className="muted small">What the gate decided for recent calls of every session, and why.</span>
      </header>
      <div className="log-filters">
        <input
          data-testid="log-search"
          type="search"
          aria-label="Search decisions"
          placeholder="Search tool, path, command, reason or “rule 12”"
          value={query}
          onChange={(e) => activityStore.setState({ query: e.target.value })}
        />
        <select
          data-testid="log-action"
          aria-label="Only this action"
          value={action}
          onChange={(e) => void loadDecisions({ action: e.target.value as DecisionLogEntry['action'] | '' })}
        >
          <option value="">Every action</option>
          <option value="allow">Allowed</option>
          <option value="require">Asked</option>
          <option value="deny">Denied</option>
        </select>
      </div>
      {error && (
        <div className="banner banner-error" role="alert">
          {error}
        </div>
      )}
      <ul className="log-list">
        {decisions.map((d) => (
          <li key={d.id} className="log-row" data-testid="log-row" data-action={d.action}>
            <span className={`badge badge-${d.action}`}>
              {d.actor === 'user' ? (d.action === 'allow' ? 'You allowed' : 'You denied') : ACTION_WORDS[d.action]}
            </span>
            <span className="log-main">
              <span className="log-what">
                <span className="mono rule-tool">{d.tool_name ?? 'unknown tool'}</span>
                {d.command && (
                  <span className="mono rule-cmd">
                    $ {d.command.length > 160 ? `${d.command.slice(0, 160)}…` : d.command}
                  </span>
                )}
                {!d.command && d.path && <span className="mono rule-path">{d.path}</span>}
              </span>
              <span className="muted small">{d.detail}</span>
              <span className="muted small">
                {time(d.created_at)} ·{' '}
                {d.session_title ?? (d.session_id ? `session ${d.session_id} (deleted)` : 'no session')}
              </span>
            </span>
            <span className="log-actions">
              <button className="ghost" data-testid="test-from-log" onClick={() => onTest(d)} disabled={!d.tool_name}>
                Test it
              </button>
              <button data-testid="rule-from-log" onClick={() => onMakeRule(d)} disabled={!d.tool_name}>
                Make a rule from this
              </button>
            </span>
          </li>
        ))}
        {decisions.length === 0 && (
          <li className="muted empty">
            {query || action ? 'No decision matches.' : 'No decisions yet: they appear as the agent calls tools.'}
          </li>
        )}
      </ul>
    </section>
  );
}

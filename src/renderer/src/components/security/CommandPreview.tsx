/**
 * The command-pattern editor's live preview (docs/ui.md): type a command and see the parts the gate cuts it into
 * and which of them the pattern matches, from the core's own shell analysis (`approval:previewCommand`), never a
 * re-implementation here. Also says what a rule with this pattern does for the whole command.
 */
import { useEffect, useState } from 'react';
import type { CallResponse } from '../../../../shared/contract/index';
import type { RuleAction } from '../../../../shared/tool-call';
import { skald } from '../../bridge/skald';

type Preview = CallResponse<'approval:previewCommand'>;

export function CommandPreview({
  pattern,
  action,
  initialCommand = '',
  sessionId = null,
}: {
  pattern: string;
  action: RuleAction;
  initialCommand?: string;
  /** The session whose working directory the command is read in ("inside the workspace"); null: the default. */
  sessionId?: number | null;
}) {
  const [command, setCommand] = useState(initialCommand);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!command.trim()) {
      setPreview(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      const session = sessionId !== null ? { sessionId } : {};
      skald.approval.previewCommand({ command, ...session, ...(pattern.trim() ? { pattern } : {}) }).then(
        (p) => live && (setPreview(p), setError(null)),
        (e: Error) => live && setError(e.message),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [command, pattern, sessionId]);

  const verdict = preview?.ruleMatches ? preview.ruleMatches[action] : null;
  return (
    <div className="cmd-preview" data-testid="command-preview">
      <label className="field">
        <span className="field-label">Try a command</span>
        <input
          data-testid="preview-command"
          className="mono"
          placeholder="git status && npm test"
          value={command}
          onChange={(e) => setCommand(e.target.value)}
        />
      </label>
      {error && <div className="error small">{error}</div>}
      {preview && (
        <div className="cmd-parts" aria-live="polite">
          {preview.parts.map((p, i) => (
            <span
              key={i}
              className={`cmd-part ${p.matches === null ? '' : p.matches ? 'is-match' : 'is-miss'}`}
              data-testid="command-part"
              data-match={String(p.matches)}
            >
              {p.text}
            </span>
          ))}
          {preview.parts.length === 0 && <span className="muted small">No command parts.</span>}
        </div>
      )}
      {preview && preview.unsafe.length > 0 && (
        <div className="warn small" data-testid="preview-unsafe">
          Never auto-allowed: {preview.unsafe.join(', ')}.
        </div>
      )}
      {preview?.patternError && <div className="error small">{preview.patternError}</div>}
      {verdict !== null && preview && (
        <div className="small" data-testid="preview-verdict">
          {verdict
            ? `A rule with this pattern ${action === 'allow' ? 'allows' : action === 'deny' ? 'denies' : 'asks about'} this command.`
            : action === 'allow'
              ? 'Not allowed by this pattern: an allow needs every part to match and nothing opaque in the command.'
              : 'This pattern matches no part of this command.'}
        </div>
      )}
    </div>
  );
}

/**
 * The inline rule editor (docs/ui.md), for a new rule and for editing one in place. While typing, the core's
 * dry-run check (`approval:checkRule`) shows a problem at its field; on save, a refusal shows the core's message
 * at the field it belongs to and nothing is written. The command pattern field appears for `execute_cmd` only,
 * with the live preview of how a command splits.
 */
import { useEffect, useRef, useState } from 'react';
import { ACTION_WORDS, type RuleField } from '../../../../shared/contract/approval';
import { skald } from '../../bridge/skald';
import type { SaveResult } from '../../stores/security-store';
import { CommandPreview } from './CommandPreview';
import { relativeHint, type OpenFolder } from './open-folder';
import { RULE_ACTIONS } from '../../../../shared/tool-call';
import { draftFields, type RuleAction, type RuleDraft } from './rule-logic';

/** The form offers every action, weakest first. */
const ACTIONS: readonly RuleAction[] = RULE_ACTIONS;
const TOOL_GROUPS = [
  { value: '@fs_read', label: 'every file-reading tool' },
  { value: '@fs_write', label: 'every file-writing tool' },
  { value: '@fs_any', label: 'every file tool' },
  { value: '*', label: 'every tool' },
];

export interface RuleFormProps {
  initial: RuleDraft;
  ruleId?: number;
  toolNames: readonly string[];
  /** The tools that take a shell command (their traits' `commandKey`): only their rules carry a command pattern. */
  commandTools: ReadonlySet<string>;
  onSave: (draft: RuleDraft) => Promise<SaveResult>;
  onCancel: () => void;
  /** What a relative path is relative to, said under the path field. */
  open: OpenFolder;
}

export function RuleForm({ initial, ruleId, toolNames, commandTools, onSave, onCancel, open }: RuleFormProps) {
  const [draft, setDraft] = useState(initial);
  const [problem, setProblem] = useState<{ field: RuleField | null; message: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const isShell = commandTools.has(draft.tool_pattern.trim());

  // Live check by the core, a moment after typing stops; it never writes.
  useEffect(() => {
    if (!draft.tool_pattern.trim()) return;
    let live = true;
    const timer = setTimeout(() => {
      const fields = draftFields(draft);
      skald.approval.checkRule(ruleId === undefined ? fields : { id: ruleId, ...fields }).then(
        (r) => live && setProblem(r.problem ? { field: r.problem.field, message: r.problem.message } : null),
        () => {},
      );
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [draft, ruleId]);

  const save = async () => {
    setSaving(true);
    const result = await onSave(isShell ? draft : { ...draft, command_pattern: '', network: false });
    setSaving(false);
    if (!result.ok) setProblem({ field: result.field, message: result.message });
  };
  const errorAt = (field: RuleField) =>
    problem?.field === field ? (
      <span className="field-error" role="alert" data-testid={`field-error-${field}`} id={`err-${field}`}>
        {problem.message}
      </span>
    ) : null;
  const invalid = (field: RuleField) => ({
    'aria-invalid': problem?.field === field,
    'aria-describedby': problem?.field === field ? `err-${field}` : undefined,
  });

  return (
    <form
      className="rule-form"
      data-testid="rule-form"
      aria-label={ruleId === undefined ? 'New rule' : `Edit rule ${ruleId}`}
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
      onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), onCancel())}
    >
      <div className="rule-form-grid">
        <label className="field">
          <span className="field-label">Tool</span>
          <input
            ref={first}
            data-testid="rule-tool"
            className="mono"
            list="rule-tool-names"
            placeholder="execute_cmd, @fs_read, mcp__server__*"
            value={draft.tool_pattern}
            onChange={(e) => set({ tool_pattern: e.target.value })}
            {...invalid('tool_pattern')}
          />
          <datalist id="rule-tool-names">
            {TOOL_GROUPS.map((g) => (
              <option key={g.value} value={g.value}>
                {g.label}
              </option>
            ))}
            {toolNames.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
          {errorAt('tool_pattern')}
        </label>
        <fieldset className="field action-field">
          <legend className="field-label">Action</legend>
          <div className="segmented" role="radiogroup" aria-label="Action">
            {ACTIONS.map((a) => (
              <label key={a} className={`seg seg-${a} ${draft.action === a ? 'is-on' : ''}`}>
                <input
                  type="radio"
                  name="rule-action"
                  value={a}
                  data-testid={`rule-action-${a}`}
                  checked={draft.action === a}
                  onChange={() => set({ action: a, ...(a === 'allow' ? {} : { network: false }) })}
                />
                {ACTION_WORDS[a]}
              </label>
            ))}
          </div>
          {errorAt('action')}
        </fieldset>
        <label className="field">
          <span className="field-label">
            Path <span className="muted">(optional)</span>
          </span>
          <input
            data-testid="rule-path"
            className="mono"
            placeholder="src/*  ·  docs/README.md  ·  /tmp/*"
            value={draft.path_pattern}
            onChange={(e) => set({ path_pattern: e.target.value })}
            {...invalid('path_pattern')}
          />
          {errorAt('path_pattern')}
        </label>
        {isShell && (
          <label className="field">
            <span className="field-label">
              Command <span className="muted">(optional)</span>
            </span>
            <input
              data-testid="rule-command"
              className="mono"
              placeholder="git *  ·  npm test"
              value={draft.command_pattern}
              onChange={(e) => set({ command_pattern: e.target.value })}
              {...invalid('command_pattern')}
            />
            {errorAt('command_pattern')}
          </label>
        )}
        {isShell && draft.action === 'allow' && (
          <label className="field field-check" title="The commands this rule allows run in the sandbox with network">
            <input
              type="checkbox"
              data-testid="rule-network"
              checked={draft.network}
              onChange={(e) => set({ network: e.target.checked })}
              {...invalid('network')}
            />
            <span className="field-label">With network</span>
            <span className="muted small">the commands it allows reach the network (still in the sandbox)</span>
            {errorAt('network')}
          </label>
        )}
        <label className="field">
          <span className="field-label">
            Note <span className="muted">(optional)</span>
          </span>
          <input
            data-testid="rule-note"
            placeholder="Why this rule exists"
            value={draft.note}
            onChange={(e) => set({ note: e.target.value })}
            {...invalid('note')}
          />
          {errorAt('note')}
        </label>
        <label className="field field-narrow">
          <span className="field-label">Priority</span>
          <input
            data-testid="rule-priority"
            type="number"
            placeholder="first"
            value={draft.priority}
            onChange={(e) => set({ priority: e.target.value })}
            {...invalid('priority')}
          />
          {errorAt('priority')}
        </label>
      </div>
      <p className="muted small field-hint" data-testid="rule-path-hint">
        {relativeHint(open)}
      </p>
      {!isShell && problem?.field === 'command_pattern' && errorAt('command_pattern')}
      {problem &&
        problem.field !== null &&
        !['tool_pattern', 'action', 'path_pattern', 'command_pattern', 'network', 'note', 'priority'].includes(
          problem.field,
        ) && (
          <div className="field-error" role="alert" data-testid="form-error">
            {problem.message}
          </div>
        )}
      {problem && problem.field === null && (
        <div className="field-error" role="alert" data-testid="form-error">
          {problem.message}
        </div>
      )}
      {isShell && <CommandPreview pattern={draft.command_pattern} action={draft.action} sessionId={open.sessionId} />}
      <div className="rule-form-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" data-testid="save-rule" disabled={saving}>
          {ruleId === undefined ? 'Add rule' : 'Save'}
        </button>
      </div>
    </form>
  );
}

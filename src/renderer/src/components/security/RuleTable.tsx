/**
 * One group's rules in the order the gate reads them (docs/approval.md): deny, then ask, then allow, then the
 * catch-all fallback, each section by priority. Each row is editable in place, movable up or down within its
 * section (the core rewrites the priorities) and deletable; for a group other than Default, the Default rules that are read
 * after it are listed below, read-only. The add form opens at the top: a new rule is read first.
 */
import { useState } from 'react';
import { ACTION_WORDS, ruleLabel, ruleName, type ApprovalRuleDto } from '../../../../shared/contract/approval';
import { deleteRule, moveRule, saveRule } from '../../stores/security-store';
import type { OpenFolder } from './open-folder';
import { RuleForm } from './RuleForm';
import { draftOf, emptyDraft, SECTION_LABELS, sectionOf, type RuleDraft } from './rule-logic';

export interface RuleTableProps {
  groupName: string;
  rules: readonly ApprovalRuleDto[];
  fallback: readonly ApprovalRuleDto[];
  toolNames: readonly string[];
  /** The tools that take a shell command (their traits' `commandKey`): only their rules carry a command pattern. */
  commandTools: ReadonlySet<string>;
  /**
   * Drafts to open the add form with, one after another ("make a rule from this": one rule per part of a command
   * that decided the call).
   */
  prefill: readonly RuleDraft[];
  onPrefillUsed: () => void;
  /** What relative paths mean, said under the path field. */
  open: OpenFolder;
}

export function RuleTable({
  groupName,
  rules,
  fallback,
  toolNames,
  commandTools,
  prefill,
  onPrefillUsed,
  open,
}: RuleTableProps) {
  const [editing, setEditing] = useState<number | 'new' | null>(prefill.length ? 'new' : null);
  // Which suggested draft the add form shows; each saved one moves on to the next.
  const [step, setStep] = useState(0);
  const suggested = step < prefill.length;
  const newDraft = prefill[step] ?? emptyDraft();
  const close = () => {
    setEditing(null);
    setStep(prefill.length);
    onPrefillUsed();
  };
  return (
    <section className="sec-card" aria-labelledby="rules-title">
      <header className="sec-card-head">
        <h2 id="rules-title">Rules of {groupName}</h2>
        <span className="muted small">
          Deny beats ask, ask beats allow, whatever the order; priority orders rules of the same action. Nothing
          matches: the fallback.
        </span>
        <span className="header-spacer" />
        <button
          className="primary"
          data-testid="add-rule"
          onClick={() => setEditing('new')}
          disabled={editing === 'new'}
        >
          Add rule
        </button>
      </header>
      {editing === 'new' && suggested && prefill.length > 1 && (
        <p className="muted small suggest-step" data-testid="suggest-step">
          Suggested rule {step + 1} of {prefill.length}: each part of the command that decided the call gets its own
          rule. Add it or cancel.
        </p>
      )}
      {editing === 'new' && (
        <RuleForm
          key={step}
          initial={newDraft}
          toolNames={toolNames}
          commandTools={commandTools}
          open={open}
          onCancel={close}
          onSave={async (d) => {
            const r = await saveRule(d);
            if (r.ok && step + 1 < prefill.length) setStep(step + 1);
            else if (r.ok) close();
            return r;
          }}
        />
      )}
      <ol className="rule-list" aria-label={`Rules of ${groupName} in evaluation order`}>
        {rules.map((rule, i) => [
          sectionOf(rule) !== (i > 0 ? sectionOf(rules[i - 1]!) : null) && (
            <li
              key={`section-${sectionOf(rule)}`}
              className="rule-section"
              data-testid="rule-section"
              aria-hidden="true"
            >
              <span>{SECTION_LABELS[sectionOf(rule)].title}</span>{' '}
              <span className="muted small">{SECTION_LABELS[sectionOf(rule)].hint}</span>
            </li>
          ),
          editing === rule.id ? (
            <li key={rule.id} className="rule-row is-editing">
              <RuleForm
                initial={draftOf(rule)}
                ruleId={rule.id}
                toolNames={toolNames}
                commandTools={commandTools}
                open={open}
                onCancel={close}
                onSave={async (d) => {
                  const r = await saveRule(d, rule.id);
                  if (r.ok) close();
                  return r;
                }}
              />
            </li>
          ) : (
            <RuleRow
              key={rule.id}
              rule={rule}
              canUp={i > 0 && sectionOf(rules[i - 1]!) === sectionOf(rule)}
              canDown={i < rules.length - 1 && sectionOf(rules[i + 1]!) === sectionOf(rule)}
              onEdit={() => setEditing(rule.id)}
            />
          ),
        ])}
        {rules.length === 0 && <li className="muted empty">No rules in this group yet.</li>}
      </ol>
      {fallback.length > 0 && (
        <details className="fallback">
          <summary>
            Also consulted: the Default group&apos;s {fallback.length} rules (a deny or ask there beats an allow here)
          </summary>
          <ol className="rule-list is-readonly">
            {fallback.map((rule) => (
              <RuleRow key={rule.id} rule={rule} readOnly />
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}

function RuleRow({
  rule,
  canUp = false,
  canDown = false,
  onEdit,
  readOnly = false,
}: {
  rule: ApprovalRuleDto;
  canUp?: boolean;
  canDown?: boolean;
  onEdit?: () => void;
  readOnly?: boolean;
}) {
  // Its one name, as the tool card and the decision log write it (docs/approval.md "Rule names").
  return (
    <li
      className="rule-row"
      data-testid="rule-row"
      data-rule-id={rule.id}
      data-action={rule.action}
      aria-label={ruleLabel(rule)}
    >
      <span className="rule-pos muted small" data-testid="rule-name">
        {ruleName(rule.id)}
      </span>
      <span className={`badge badge-${rule.action}`}>{ACTION_WORDS[rule.action]}</span>
      <span className="rule-main">
        <span className="mono rule-tool">{rule.tool_pattern}</span>
        {rule.path_pattern && (
          <span className="mono rule-path" title="Path pattern">
            {rule.path_pattern}
          </span>
        )}
        {rule.command_pattern && (
          <span className="mono rule-cmd" title="Command pattern">
            $ {rule.command_pattern}
          </span>
        )}
        {rule.network && (
          <span className="badge" data-testid="rule-network-badge" title="The commands it allows run with network">
            with network
          </span>
        )}
        {(rule.agent_id || rule.source) && (
          <span className="muted small">
            {[rule.agent_id && `agent ${rule.agent_id}`, rule.source && `source ${rule.source}`]
              .filter(Boolean)
              .join(' · ')}
          </span>
        )}
        {rule.note && <span className="muted small rule-note">{rule.note}</span>}
      </span>
      <span className="muted small rule-prio" title="Priority: lower is read first">
        priority {rule.priority}
      </span>
      {!readOnly && (
        <span className="rule-actions">
          <button
            className="icon ghost"
            aria-label={`Move rule ${rule.id} up`}
            disabled={!canUp}
            onClick={() => void moveRule(rule.id, -1)}
          >
            ↑
          </button>
          <button
            className="icon ghost"
            aria-label={`Move rule ${rule.id} down`}
            disabled={!canDown}
            onClick={() => void moveRule(rule.id, 1)}
          >
            ↓
          </button>
          <button className="ghost" data-testid="edit-rule" aria-label={`Edit rule ${rule.id}`} onClick={onEdit}>
            Edit
          </button>
          <button
            className="ghost danger"
            data-testid="delete-rule"
            aria-label={`Delete rule ${rule.id}`}
            onClick={() => void deleteRule(rule.id)}
          >
            Delete
          </button>
        </span>
      )}
    </li>
  );
}

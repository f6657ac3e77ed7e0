/**
 * The Security page (docs/ui.md): groups on the left; on the right the selected group's rules with the locked
 * guards above them, and the other views of the same gate (file system, "what would happen if…", bypasses, the
 * decision log). Everything is read from and written to the core; this page holds view state only.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { loadSecurity, securityStore } from '../../stores/security-store';
import type { DecisionLogEntry } from '../../../../shared/contract/approval';
import { skald } from '../../bridge/skald';
import { BypassList } from './BypassList';
import { CallTester, type TesterSeed } from './CallTester';
import { DecisionLog } from './DecisionLog';
import { FileSystemPanel } from './FileSystemPanel';
import { GroupList } from './GroupList';
import { LockedRows } from './LockedRows';
import { RuleTable } from './RuleTable';
import { useOpenFolder } from './open-folder';
import { draftOfSuggestion, type RuleDraft } from './rule-logic';
import './security.css';

const TABS = [
  { id: 'rules', label: 'Rules' },
  { id: 'files', label: 'File system' },
  { id: 'test', label: 'What would happen if…' },
  { id: 'bypasses', label: 'Bypasses' },
  { id: 'log', label: 'Decision log' },
] as const;
type Tab = (typeof TABS)[number]['id'];
const TAB_PANEL = 'security-tabpanel';

export function SecurityPage() {
  const state = useStore(securityStore);
  const [tab, setTab] = useState<Tab>('rules');
  const [prefill, setPrefill] = useState<RuleDraft[]>([]);
  const [seed, setSeed] = useState<TesterSeed | null>(null);
  const open = useOpenFolder();
  // The tabs pattern (docs/ui.md "Keyboard"): only the open tab is in the Tab order; the arrows, Home and End open
  // the next, previous, first or last one and move the focus with them.
  const onTabKey = (e: React.KeyboardEvent, index: number) => {
    const step: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TABS.length - 1 };
    if (!(e.key in step)) return;
    e.preventDefault();
    const next = TABS[(step[e.key]! + TABS.length) % TABS.length]!;
    setTab(next.id);
    document.getElementById(`security-tab-${next.id}`)?.focus();
  };
  useEffect(() => void loadSecurity(), []);
  const group = state.groups.find((g) => g.id === state.groupId);
  const tools = [...state.tools.built_in, ...state.tools.mcp, ...state.tools.dynamic];
  const toolNames = tools.map((t) => t.name);
  // The tools whose rules may carry a command pattern: those that say they take a shell command (their traits).
  const commandTools = new Set(tools.filter((t) => t.traits?.commandKey).map((t) => t.name));
  // The core works out the rules (the decided action, every part that decided it: approval/suggest-rules.ts).
  const makeRule = (entry: DecisionLogEntry) => {
    skald.approval.suggestRules({ decisionId: entry.id }).then(
      (r) => {
        setPrefill(r.rules.map(draftOfSuggestion));
        setTab('rules');
      },
      (e: Error) => securityStore.setState({ error: e.message }),
    );
  };
  const testCall = (entry: DecisionLogEntry) => {
    let args: Record<string, unknown> = {};
    try {
      if (entry.arguments && !entry.arguments_cut) args = JSON.parse(entry.arguments) as Record<string, unknown>;
    } catch {
      // a row whose arguments are not JSON: start from empty arguments
    }
    setSeed({ toolName: entry.tool_name ?? '', args, sessionId: entry.session_id });
    setTab('test');
  };

  return (
    <div className="security-page" data-testid="security-page">
      <GroupList />
      <div className="security-main">
        <header className="page-head">
          <div>
            <h1>Security</h1>
            <p className="muted">
              Every tool call passes this gate.{' '}
              {group ? (
                <>
                  Showing <strong>{group.name}</strong>
                  {group.description ? ` — ${group.description}` : ''}
                </>
              ) : null}
            </p>
          </div>
        </header>
        <div className="tabs" role="tablist" aria-label="Security views">
          {TABS.map((t, index) => (
            <button
              key={t.id}
              id={`security-tab-${t.id}`}
              role="tab"
              aria-selected={tab === t.id}
              aria-controls={tab === t.id ? TAB_PANEL : undefined}
              tabIndex={tab === t.id ? 0 : -1}
              className={`tab ${tab === t.id ? 'is-active' : ''}`}
              data-testid={`tab-${t.id}`}
              onClick={() => setTab(t.id)}
              onKeyDown={(e) => onTabKey(e, index)}
            >
              {t.label}
            </button>
          ))}
        </div>
        {state.error && (
          <div className="banner banner-error" role="alert" data-testid="security-error">
            {state.error}
          </div>
        )}
        <div className="tab-body" role="tabpanel" id={TAB_PANEL} aria-labelledby={`security-tab-${tab}`}>
          {tab === 'rules' && (
            <>
              <RuleTable
                key={`${state.groupId}-${prefill.length}`}
                groupName={group?.name ?? state.groupId}
                rules={state.rules}
                fallback={state.fallback}
                toolNames={toolNames}
                commandTools={commandTools}
                prefill={prefill}
                onPrefillUsed={() => setPrefill([])}
                open={open}
              />
              <LockedRows guards={state.guards} />
            </>
          )}
          {tab === 'files' && <FileSystemPanel open={open} />}
          {tab === 'test' && <CallTester key={JSON.stringify(seed)} tools={tools} seed={seed} open={open} />}
          {tab === 'bypasses' && <BypassList />}
          {tab === 'log' && <DecisionLog onMakeRule={makeRule} onTest={testCall} />}
        </div>
      </div>
    </div>
  );
}

/**
 * The approval domain's composition: one factory that builds the repository, bypass store, shell analyzer, gate
 * and pending manager over one database, plus `port`, the exact GatePort the session loop consumes
 * (gate-port.ts). Async because the bash grammar may load here (`shellGrammar`); every decision is sync.
 */
import type { InboxEvent } from '../../../shared/contract/inbox';
import type { ToolCategory } from '../../../shared/tool-names';
import type { ToolTraits } from '../../../shared/tool-traits';
import type { Db } from '../db/database';
import { canonicalizeForPolicy } from '../tools/_policy/paths';
import { BypassStore, optionsFor } from './bypass';
import { argsBinding, recordDecision } from './decisions';
import { ApprovalGate } from './gate';
import type { GatePort } from './gate-port';
import type { SessionApprovalEvent } from './approval-card';
import { PendingManager, rejectText, type PendingDeps } from './pending';
import { RulesRepository } from './rules-repository';
import { ShellAnalyzer } from './shell';

export interface ApprovalDeps {
  db: Db;
  /** The tool rows' one writer (the session store): a request flips its call's row to `pending`. */
  toolRows: PendingDeps['toolRows'];
  workspaceDir: string;
  dataDir: string;
  dbFile: string;
  emitSession: (sessionId: number, event: SessionApprovalEvent) => void;
  emitInbox: (event: InboxEvent) => void;
  categoryOf?: (toolName: string) => ToolCategory | null;
  /** What a tool says about itself (kind, command and secret arguments, …): what the gate and the bypass read. */
  traitsOf: (toolName: string) => ToolTraits | null;
  /** Unanswered approvals count as rejected after this long; null (default) = wait for ever. */
  approvalTimeoutMs?: number | null;
  /** What a command's card says of where it runs (the sandbox's `cardLine`; docs/approval.md). */
  sandboxLine?: PendingDeps['sandboxLine'];
  /**
   * `now` (default): the bash grammar is loaded before the services are returned. `background`: it is not (the
   * app's start must not wait for it; docs/shell-analysis.md "Cold start"): `shell.whenLoaded()` starts it, and a
   * call that needs it waits through `GatePort.whenReadyFor`.
   */
  shellGrammar?: 'now' | 'background';
  log?: (message: string, fields?: Record<string, unknown>) => void;
  now?: () => number;
}

export interface ApprovalServices {
  rules: RulesRepository;
  bypass: BypassStore;
  gate: ApprovalGate;
  pending: PendingManager;
  /** What the session loop calls (check, recordDecision, requestApproval, …). */
  port: GatePort;
  /** The shell analyzer; with `shellGrammar: 'background'`, `shell.whenLoaded()` starts loading the grammar. */
  shell: ShellAnalyzer;
}

export async function createApprovalServices(deps: ApprovalDeps): Promise<ApprovalServices> {
  const rules = new RulesRepository(deps.db, deps.traitsOf);
  const workspaceCanon = canonicalizeForPolicy(deps.workspaceDir, deps.workspaceDir);
  const bypass = new BypassStore(deps.now, workspaceCanon);
  const shell = deps.shellGrammar === 'background' ? ShellAnalyzer.deferred() : await ShellAnalyzer.create();
  const bypassOptions: PendingDeps['bypassOptions'] = (call) =>
    optionsFor(call, {
      workspaceDir: workspaceCanon,
      traitsOf: deps.traitsOf,
      commandParts: (command, workdir) => {
        const a = shell.analyze(command, workdir, () => true);
        // A command with unsafe constructs is never covered by a bypass: no family of it to offer.
        return a.parsed && a.unsafe.length === 0 ? a.parts : null;
      },
    });
  const gate = new ApprovalGate({
    rules,
    bypass,
    shell,
    workspaceDir: deps.workspaceDir,
    dataDir: deps.dataDir,
    dbFile: deps.dbFile,
    traitsOf: deps.traitsOf,
    log: deps.log,
  });
  const pending = new PendingManager({
    db: deps.db,
    toolRows: deps.toolRows,
    bypass,
    workspaceDir: deps.workspaceDir,
    emitSession: deps.emitSession,
    emitInbox: deps.emitInbox,
    categoryOf: deps.categoryOf,
    bypassOptions,
    timeoutMs: deps.approvalTimeoutMs ?? null,
    now: deps.now,
    sandboxLine: deps.sandboxLine,
  });
  /** Waits for the person; the turn's abort signal withdraws the request (its row stays `pending`). */
  const untilAnswered = async <T>(
    { requestId, result }: { requestId: number; result: Promise<T> },
    signal: AbortSignal,
  ): Promise<T> => {
    const onAbort = () => pending.cancel(requestId);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await result;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  };
  const port: GatePort = {
    check: (call) => gate.check(call),
    whenReadyFor: (call) => gate.whenReadyFor(call),
    prepareFor: (toolName) => gate.prepareFor(toolName),
    walkPolicy: (call) => gate.walkPolicy(call),
    isHidden: (groupId, toolName) => gate.isToolHidden(groupId, toolName),
    argsBinding: (args) => argsBinding(args),
    recordDecision: (entry) => recordDecision(deps.db, entry),
    requestApproval: ({ signal, ...request }) => untilAnswered(pending.requestApproval(request), signal),
    requestClarification: ({ signal, ...request }) => untilAnswered(pending.requestClarification(request), signal),
    rejectText,
    cancelForSession: (sessionId) => pending.cancelForSession(sessionId),
  };
  return { rules, bypass, gate, pending, port, shell };
}

export { argsHash, recordDecision } from './decisions';
export {
  BypassStore,
  describeScope,
  optionsFor,
  type BypassGrant,
  type BypassOption,
  type BypassScope,
} from './bypass';
export { ApprovalGate, type Decision, type WhyKind } from './gate';
export type { GateCall } from './gate-port';
export { PendingManager, rejectText, type ApprovalOutcome, type ApprovalRequestInput } from './pending';
export type { SessionApprovalEvent } from './approval-card';
export { ApprovalCancelledError } from './request-ledger';
export { RulesRepository } from './rules-repository';
export { DEFAULT_GROUP, type ApprovalRule, type ApprovalGroup, type RuleInput } from './rule-checks';

/**
 * What the session's turn loop asks of the approval service (docs/approval.md): decide a call, record the decision,
 * wait for the person. Declared here, beside the service that implements it (approval/index.ts builds `port`), so the
 * approval room never imports the session; the session re-exports it (session/ports.ts).
 */
import type { Decision } from '../../../shared/contract/approval';
import type { RunContext } from '../../../shared/run-context';
import type { ToolCategory } from '../../../shared/tool-names';
import type { Preview, ProtectedPaths, ToolArgs } from '../tools/tool';
import type { ApprovalOutcome } from './decisions';
import type { ClarificationInput } from './clarifications';

/** One call as the gate judges it. */
export interface GateCall {
  sessionId: number | null;
  /** Overrides `runContext.security_group`. */
  groupId?: string;
  agentId: string;
  source: string;
  toolName: string;
  category: ToolCategory | null;
  /** Effective arguments: `path` absolute (a relative one is resolved against the working directory). */
  args: Record<string, unknown>;
  runContext: RunContext;
  /** Absent = the run context's working_directory, else the workspace. */
  workingDir?: string;
}

export interface GatePort {
  check(call: GateCall): Decision;
  /** Null when `check` can decide the call now; else resolves once it can (the bash grammar still loading). */
  whenReadyFor(call: GateCall): Promise<void> | null;
  /** A call of this tool is on its way (the model is still writing it): start loading what deciding it needs. */
  prepareFor(toolName: string): void;
  /** What a walk of this call must leave out (rules with a path, guards), handed to the tool as it runs. */
  walkPolicy(call: GateCall): ProtectedPaths;
  isHidden(groupId: string | undefined, toolName: string): boolean;
  /** The arguments' canonical JSON (stored, shown) and its hash (what an approval binds), one serialization. */
  argsBinding(args: ToolArgs): { json: string; hash: string };
  /** Called inside the caller's transaction, together with the tool-row write (C4); returns the audit row's id. */
  recordDecision(entry: { toolCallId: string; sessionId: number; decision: Decision; argsHash: string }): number;
  /** Flips the row to `pending`, registers the waiter and emits the approval events; resolves on the human's answer. */
  requestApproval(request: {
    sessionId: number;
    toolCallId: string;
    toolName: string;
    args: ToolArgs;
    argsHash: string;
    category: ToolCategory | null;
    agentId: string;
    source: string;
    /** The tool's own dry run (diff, command line or refusal); null when it has none. */
    preview: Preview | null;
    /** Who asks, when it is not the session's own agent ("Sub-agent … depth 2"): shown in the Inbox. */
    contextLabel?: string | null;
    signal: AbortSignal;
  }): Promise<ApprovalOutcome>;
  /** Asks the person (chat card and Inbox); resolves with their answer. Rejects when the turn is stopped. */
  requestClarification(request: ClarificationInput & { signal: AbortSignal }): Promise<string>;
  rejectText(note: string): string;
  cancelForSession(sessionId: number): void;
}

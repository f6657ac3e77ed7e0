/**
 * What the turn loop needs from its neighbours, as narrow interfaces (ports). The composition root passes the
 * real services (tool registry, approval gate, LLM client); tests pass the same real services, never mocks of
 * the loop itself. Keeping the ports here lets the loop stay independent of how those services are built.
 * Check ids (C4) are listed in docs/security-checks.md.
 */
import type { Decision } from '../../../shared/contract/approval';
import type { GateCall } from '../approval/gate';
import type { ApprovalOutcome } from '../approval/decisions';
import type { RunContext } from '../../../shared/run-context';
import type { ToolCategory } from '../../../shared/tool-names';
import type { Preview, ProtectedPaths, ToolArgs } from '../tools/tool';

// The message, tool and round shapes are the LLM layer's own; the loop speaks them as they are.
import type { ChatMessage, LlmTurn, StreamRoundRequest, ToolSpec } from '../llm/types';
import type { ImageSnapshot } from '../viewer/blob-store';
export type { ChatMessage, LlmTurn, StreamRoundRequest, ToolSpec };

export interface ModelPort {
  streamRound(request: StreamRoundRequest): Promise<LlmTurn>;
}

// The tools as the loop uses them are declared with the tools (tools/tools-port.ts).
export type { ToolsPort } from '../tools/tools-port';

// One decision, one call, one outcome: the gate's and the approval manager's own types (docs/approval.md).
export type { Decision } from '../../../shared/contract/approval';
export type { GateCall } from '../approval/gate';
export type { ApprovalOutcome } from '../approval/decisions';

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
  requestClarification(request: {
    sessionId: number;
    toolCallId: string;
    title: string;
    question: string;
    suggestedAnswers: string[];
    contextLabel?: string | null;
    signal: AbortSignal;
  }): Promise<string>;
  rejectText(note: string): string;
  cancelForSession(sessionId: number): void;
}

/** Before/after images of a write call (docs/viewer.md "Diff and revert"); `record` runs in the tool row's transaction. */
export interface FileImagesPort {
  snapshot(path: string, workingDir: string): ImageSnapshot;
  record(toolCallId: string, path: string, before: ImageSnapshot, after: ImageSnapshot): void;
}

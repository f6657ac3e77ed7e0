/**
 * What the turn loop needs from its neighbours, as narrow interfaces (ports). The composition root passes the
 * real services (tool registry, approval gate, LLM client); tests pass the same real services, never mocks of
 * the loop itself. Keeping the ports here lets the loop stay independent of how those services are built.
 * Check ids (C4) are listed in docs/security-checks.md.
 */
import type { Decision } from '../../../shared/contract/approval';
import type { GateCall } from '../approval/gate-port';
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

// One decision, one call, one outcome: the gate's and the approval manager's own types (docs/approval.md); the port
// the loop calls the gate through is the approval service's own (approval/gate-port.ts).
export type { Decision } from '../../../shared/contract/approval';
export type { GateCall } from '../approval/gate-port';
export type { ApprovalOutcome } from '../approval/decisions';
export type { GatePort } from '../approval/gate-port';

/** Before/after images of a write call (docs/viewer.md "Diff and revert"); `record` runs in the tool row's transaction. */
export interface FileImagesPort {
  snapshot(path: string, workingDir: string): ImageSnapshot;
  record(toolCallId: string, path: string, before: ImageSnapshot, after: ImageSnapshot): void;
}

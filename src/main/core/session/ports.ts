/**
 * What the turn loop needs from its neighbours, as narrow interfaces (ports). The composition root passes the
 * real services (tool registry, approval gate, LLM client); tests pass the same real services, never mocks of
 * the loop itself. Keeping the ports here lets the loop stay independent of how those services are built.
 * Check ids (C4) are listed in docs/security-checks.md.
 */
import type { LabelLength } from '../../../shared/labels';
import type { Decision } from '../../../shared/contract/approval';
import type { GateCall } from '../approval/gate';
import type { ApprovalOutcome } from '../approval/decisions';
import type { RunContext } from '../../../shared/run-context';
import type { ToolCategory } from '../../../shared/tool-names';
import type {
  Normalized,
  OpenAiToolDefinition,
  Preview,
  PreviewContext,
  ProtectedPaths,
  ToolArgs,
  ToolExecution,
  ToolKind,
  ToolRunContext,
  ToolTraits,
} from '../tools/tool';

// The message, tool and round shapes are the LLM layer's own; the loop speaks them as they are.
import type { ChatMessage, LlmTurn, StreamRoundRequest, ToolSpec } from '../llm/types';
import type { ImageSnapshot } from '../viewer/blob-store';
export type { ChatMessage, LlmTurn, StreamRoundRequest, ToolSpec };

export interface ModelPort {
  streamRound(request: StreamRoundRequest): Promise<LlmTurn>;
}

export interface ToolsPort {
  has(name: string): boolean;
  run(name: string, args: ToolArgs, ctx: ToolRunContext): ToolExecution | null;
  describeCall(name: string, args: ToolArgs, length: LabelLength): string;
  targetPath(name: string, args: ToolArgs): string | null;
  categoryOf(name: string): ToolCategory | null;
  kindOf(name: string): ToolKind | null;
  /** What a tool says about itself (docs/tools.md "One tool shape"); null for one the core does not know. */
  traitsOf(name: string): ToolTraits | null;
  isIdempotent(name: string): boolean;
  /** The one normalized form of a call's arguments; names outside the registry pass through as sent. */
  normalize(name: string, args: ToolArgs, workingDir: string): Normalized;
  /** The tool's own dry run for the approval card (a diff, a command line, or the refusal it would give). */
  preview(name: string, args: ToolArgs, ctx: PreviewContext): Preview | null;
  openaiDefinitions(): OpenAiToolDefinition[];
}

// One decision, one call, one outcome: the gate's and the approval manager's own types (docs/approval.md); the port
// the loop calls the gate through is the approval service's own (approval/gate-port.ts).
export type { Decision } from '../../../shared/contract/approval';
export type { GateCall } from '../approval/gate';
export type { ApprovalOutcome } from '../approval/decisions';
export type { GatePort } from '../approval/gate-port';

/** Before/after images of a write call (docs/viewer.md "Diff and revert"); `record` runs in the tool row's transaction. */
export interface FileImagesPort {
  snapshot(path: string, workingDir: string): ImageSnapshot;
  record(toolCallId: string, path: string, before: ImageSnapshot, after: ImageSnapshot): void;
}

/**
 * The tools as the session's turn loop uses them (docs/architecture.md "Tools"): what a tool is, its label, its
 * normalized arguments, its dry run and its run, by name. Declared with the tools (the registry answers it;
 * `toolsWithMcp` adds the MCP tools beside the built-ins), and named by session/ports.ts among the loop's ports.
 */
import type { LabelLength } from '../../../shared/labels';
import type { ToolCategory } from '../../../shared/tool-names';
import type {
  Normalized,
  OpenAiToolDefinition,
  Preview,
  PreviewContext,
  ToolArgs,
  ToolExecution,
  ToolKind,
  ToolRunContext,
  ToolTraits,
} from './tool';

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

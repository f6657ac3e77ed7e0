/**
 * How an MCP tool call runs once the gate has let it through (docs/mcp.md "Calls"): the manager reconnects the
 * server if needed and makes the SDK call; progress notifications go out as `mcp` events tied to the tool call
 * (the chat card shows them); the result becomes an outcome (structured content as JSON, media saved as files).
 * A stop aborts the request, which sends `notifications/cancelled` to the server. Every failure is an outcome
 * the model can read, never a throw.
 */
import type { McpEvent } from '../../../../shared/contract/mcp';
import { parseMcpToolName } from '../../../../shared/tool-names';
import { SimpleExecution, errorText } from '../execution';
import type { ExecutionOutcome, ToolArgs, ToolExecution, ToolRunContext } from '../tool';
import { toOutcome, type RawToolResult } from './results';

/** How one MCP call is made: its stop, the call it belongs to, and where its progress goes. */
export interface McpCallOptions {
  signal: AbortSignal;
  context: { sessionId: number | null; toolCallId: string | null };
  onProgress: (progress: { progress: number; total: number | null; message: string | null }) => void;
}

/** The MCP servers as their tools' calls reach them (mcp/manager.ts's `McpManager` is the one). */
export interface McpCallPort {
  /** Whether `server` is a configured (or connected) server, whose `mcp__<server>__…` names are MCP tools. */
  isServerTool(server: string): boolean;
  /**
   * Runs one call (the gate has passed it), reconnecting the server if need be: the server's own name of the tool
   * and its raw result; rejects with a message the model can read.
   */
  callTool(
    server: string,
    exposedName: string,
    args: Record<string, unknown>,
    options: McpCallOptions,
  ): Promise<{ tool: string; result: unknown }>;
}

export interface McpCallDeps {
  manager: McpCallPort;
  emit: (event: McpEvent) => void;
}

export function runMcpTool(deps: McpCallDeps, exposedName: string, args: ToolArgs, ctx: ToolRunContext): ToolExecution {
  return new SimpleExecution((signal) => callOnce(deps, exposedName, args, ctx, signal), ctx.signal);
}

async function callOnce(
  deps: McpCallDeps,
  exposedName: string,
  args: ToolArgs,
  ctx: ToolRunContext,
  signal: AbortSignal,
): Promise<ExecutionOutcome> {
  const parsed = parseMcpToolName(exposedName);
  if (!parsed) return { kind: 'failed', error: `${exposedName} is not an MCP tool name.` };
  const call = ctx.call ?? null;
  try {
    const { tool, result } = await deps.manager.callTool(parsed.server, exposedName, args, {
      signal,
      context: { sessionId: call?.sessionId ?? null, toolCallId: call?.toolCallId ?? null },
      onProgress: (p) =>
        deps.emit({
          type: 'progress',
          session_id: call?.sessionId ?? null,
          tool_call_id: call?.toolCallId ?? null,
          ...p,
        }),
    });
    return toOutcome(result as RawToolResult, {
      workingDir: ctx.workingDir,
      workspaceDir: ctx.workspaceDir,
      protectedRoots: ctx.protectedRoots,
      server: parsed.server,
      tool,
    });
  } catch (error) {
    if (signal.aborted)
      return { kind: 'cancelled', note: 'Stopped by the user; the MCP server was told to cancel the call.' };
    return { kind: 'failed', error: errorText(error) };
  }
}

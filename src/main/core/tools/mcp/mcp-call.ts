/**
 * How an MCP tool call runs once the gate has let it through (docs/mcp.md "Calls"): the manager reconnects the
 * server if needed and makes the SDK call; progress notifications go out as `mcp` events tied to the tool call
 * (the chat card shows them); the result becomes an outcome (structured content as JSON, media saved as files).
 * A stop aborts the request, which sends `notifications/cancelled` to the server. Every failure is an outcome
 * the model can read, never a throw.
 */
import type { McpEvent } from '../../../../shared/contract/mcp';
import { parseMcpToolName } from '../../../../shared/tool-names';
import type { McpManager } from '../../mcp/manager';
import { toOutcome, type RawToolResult } from '../../mcp/results';
import { SimpleExecution, errorText } from '../execution';
import type { ExecutionOutcome, ToolArgs, ToolExecution, ToolRunContext } from '../tool';

export interface McpCallDeps {
  manager: McpManager;
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

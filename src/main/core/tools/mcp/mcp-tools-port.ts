/**
 * The tool port the session loop uses, with MCP tools next to the built-ins (docs/mcp.md "Calls"). Built-ins
 * come from the registry unchanged; a name `mcp__<server>__<tool>` of a configured server is an MCP tool: it has
 * no category (rules and bypasses name it or its server), is never idempotent (after a crash it is "interrupted",
 * re-run only when the person says so) and runs through `runMcpTool`. Which MCP tools are *offered* is decided by
 * the session's activated groups, not here; a call to a tool that is not offered still passes the gate.
 */
import type { LabelLength } from '../../../../shared/labels';
import { parseMcpToolName, type ToolCategory } from '../../../../shared/tool-names';
import type { ToolRegistry } from '../registry';
import type { OpenAiToolDefinition, ToolArgs, ToolExecution, ToolRunContext } from '../tool';
import type { ToolsPort } from '../tools-port';
import { runMcpTool, type McpCallDeps } from './mcp-call';

export function toolsWithMcp(registry: ToolRegistry, mcp: McpCallDeps): ToolsPort {
  const isMcp = (name: string) => {
    const parsed = parseMcpToolName(name);
    return parsed !== null && mcp.manager.isServerTool(parsed.server);
  };
  return {
    has: (name) => registry.has(name) || isMcp(name),
    run(name: string, args: ToolArgs, ctx: ToolRunContext): ToolExecution | null {
      if (registry.has(name)) return registry.run(name, args, ctx);
      return isMcp(name) ? runMcpTool(mcp, name, args, ctx) : null;
    },
    describeCall: (name: string, args: ToolArgs, length: LabelLength) => registry.describeCall(name, args, length),
    targetPath: (name: string, args: ToolArgs) => registry.targetPath(name, args),
    categoryOf: (name: string): ToolCategory | null => registry.categoryOf(name),
    // An MCP tool declares nothing we can trust about its effect: kind `other`; its arguments go as sent.
    kindOf: (name: string) => registry.kindOf(name) ?? (isMcp(name) ? 'other' : null),
    traitsOf: (name: string) => registry.traitsOf(name),
    normalize: (name: string, args: ToolArgs, workingDir: string) => registry.normalize(name, args, workingDir),
    preview: (name, args, ctx) => registry.preview(name, args, ctx),
    isIdempotent: (name: string) => registry.isIdempotent(name),
    openaiDefinitions: (): OpenAiToolDefinition[] => registry.openaiDefinitions(),
  };
}

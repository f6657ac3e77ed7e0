/**
 * The Config-category tools of the MCP side (docs/mcp.md "Config tools"): `register_mcp`, `delete_mcp` and
 * `toggle_item` (with the `mcp` kind, and the `plugin` kind when a plugin manager is given). The composition
 * root registers them in the tool registry beside the built-ins.
 */
import type { Tool } from '../tool';
import { createDeleteMcpTool, createRegisterMcpTool, type McpServersPort } from './register-mcp';
import { createToggleItemTool, ItemTogglers, mcpToggler, pluginToggler } from './toggle-item';

export function createMcpConfigTools(
  mcp: McpServersPort,
  plugins?: Parameters<typeof pluginToggler>[0],
): { tools: Tool[]; togglers: ItemTogglers } {
  const togglers = new ItemTogglers();
  togglers.register('mcp', mcpToggler(mcp));
  if (plugins) togglers.register('plugin', pluginToggler(plugins));
  return { tools: [createRegisterMcpTool(mcp), createDeleteMcpTool(mcp), createToggleItemTool(togglers)], togglers };
}

export { toolsWithMcp } from './mcp-tools-port';
export { ItemTogglers } from './toggle-item';

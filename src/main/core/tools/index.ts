/**
 * The built-in tools, as one explicit list (no discovery from the filesystem), and the registry made from them.
 * The composition root calls `createToolRegistry(createBuiltinTools(deps))`; a test pins the exact set of names.
 */
import { editFileTool } from './fs/edit-file';
import { createGrepFilesTool, type GrepFilesDeps } from './fs/grep-files';
import { insertAtLineTool } from './fs/insert-at-line';
import { listFilesTool } from './fs/list-files';
import { readFileTool } from './fs/read-file';
import { replaceLinesTool } from './fs/replace-lines';
import { searchFileTool } from './fs/search-file';
import { writeFileTool } from './fs/write-file';
import { getAstOutlineTool } from './outline/get-ast-outline';
import { ToolRegistry } from './registry';
import { createExecuteCmdTool, type ExecuteCmdDeps } from './shell/execute-cmd';
import { createRestartTool } from './shell/restart';
import type { Tool } from './tool';

export interface BuiltinToolDeps extends ExecuteCmdDeps, GrepFilesDeps {
  /** What `restart` does: the desktop shell relaunches, the web shape re-executes itself. */
  requestRestart: () => void;
}

export function createBuiltinTools(deps: BuiltinToolDeps): Tool[] {
  return [
    listFilesTool,
    readFileTool,
    writeFileTool,
    editFileTool,
    insertAtLineTool,
    replaceLinesTool,
    searchFileTool,
    createGrepFilesTool(deps),
    getAstOutlineTool,
    createExecuteCmdTool(deps),
    createRestartTool(deps.requestRestart),
  ];
}

export function createToolRegistry(tools: readonly Tool[]): ToolRegistry {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return registry;
}

export { ToolRegistry } from './registry';
export { ToolCatalog, type AllTools, type ToolInfo } from './catalog';
export { SimpleExecution, driveExecution } from './execution';
export { defineTool, ToolError } from './define-tool';

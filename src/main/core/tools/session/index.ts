/**
 * The session's own tools (docs/agents.md "Session tools"), as one explicit list: the registry knows their traits
 * and labels like any tool's; the session runs them (session/synthetic-tools.ts). A new one is a file here and a line
 * in this list.
 */
import { executeSubtaskTool, executeTaskTool, readAgentResultTool } from '../agents/execute-task';
import { activateToolsTool } from './activate-tools';
import { clarificationTool } from './ask-user-clarification';
import type { InterfaceTool } from './interface-tool';
import { notifyTool } from './notify';
import { readNotificationTool } from './read-notification';
import { showFileToUserTool } from './show-file-to-user';
import { updateScratchpadTool } from './update-scratchpad';
import { writeTodosTool } from './write-todos';

export const SESSION_TOOLS: readonly InterfaceTool[] = [
  showFileToUserTool,
  writeTodosTool,
  updateScratchpadTool,
  activateToolsTool,
  executeTaskTool,
  executeSubtaskTool,
  readAgentResultTool,
  notifyTool,
  readNotificationTool,
  clarificationTool,
];

/**
 * Every system tool name, in one place (docs/tools.md lists them). Never spell these strings elsewhere.
 */
export const TN = {
  LIST_FILES: 'list_files',
  READ_FILE: 'read_file',
  WRITE_FILE: 'write_file',
  EDIT_FILE: 'edit_file',
  INSERT_AT_LINE: 'insert_at_line',
  REPLACE_LINES: 'replace_lines',
  SEARCH_FILE: 'search_file',
  GREP_FILES: 'grep_files',
  GET_AST_OUTLINE: 'get_ast_outline',
  EXECUTE_CMD: 'execute_cmd',
  RESTART: 'restart',
  EXECUTE_TASK: 'execute_task',
  EXECUTE_SUBTASK: 'execute_subtask',
  RUN_SUBTASK: 'run_subtask',
  UPDATE_SCRATCHPAD: 'update_scratchpad',
  WRITE_TODOS: 'write_todos',
  ASK_USER_CLARIFICATION: 'ask_user_clarification',
  ACTIVATE_TOOLS: 'activate_tools',
  NOTIFY: 'notify',
  READ_NOTIFICATION: 'read_notification',
  SHOW_FILE_TO_USER: 'show_file_to_user',
  IMAGE_GENERATE: 'image_generate',
  IMAGE_GENERATE_PROVIDERS_LIST: 'image_generate_providers_list',
  LIST_ITEMS: 'list_items',
  REGISTER_MCP: 'register_mcp',
  DELETE_MCP: 'delete_mcp',
  TOGGLE_ITEM: 'toggle_item',
  DELETE_CRON_JOB: 'delete_cron_job',
  CONFIGURE_PLUGIN: 'configure_plugin',
  SET_SECRET: 'set_secret',
  LIST_SECRETS: 'list_secrets',
  READ_AGENT_RESULT: 'read_agent_result',
} as const;

export type ToolName = (typeof TN)[keyof typeof TN];

export const TOOL_CATEGORIES = ['filesystem', 'shell', 'subagent', 'introspection', 'config'] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** MCP names (docs/mcp.md "Names"): `mcp__<server>__<tool>`. */
export const MCP_PREFIX = 'mcp__';
export const MCP_SERVER_NAME = /^[a-zA-Z0-9-]+$/;
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  if (!name.startsWith(MCP_PREFIX)) return null;
  const rest = name.slice(MCP_PREFIX.length);
  const cut = rest.indexOf('__');
  if (cut <= 0) return null;
  return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
}

/** Other names models use for the file tools' `path` argument (folded by the tools; read by the viewer's search hits). */
export const PATH_ALIASES = {
  file_path: 'path',
  filepath: 'path',
  file: 'path',
  filePath: 'path',
  dir: 'path',
  directory: 'path',
} as const;

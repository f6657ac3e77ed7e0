/**
 * Which tools an agent frame is offered, in one place (docs/agents.md "Rules of a child"). Rebuilt every round, so
 * an `activate_tools` grant, an edited agent allow-list (`withCurrentAllowList`) or a new Deny rule applies from
 * the next round.
 * - Base: the registry's tools without the lazy `config` group (agents/tool-groups.ts); a sub-agent loses the root-only ones and gains the
 *   sub-agents-only ones; an agent's meta.json `tools` narrows this set (never widens it).
 * - Interface tools by frame: every agent gets `write_todos`, `update_scratchpad`, `activate_tools` and (unless it
 *   is a hidden `system` agent) `ask_user_clarification`; the chat's own agent also `show_file_to_user`,
 *   `execute_task`, `read_agent_result`, `read_notification`; a background run's agent `execute_subtask` and
 *   `notify`; a sub-agent `execute_subtask` while a deeper level is still allowed.
 * - Granted groups are appended; built-in groups go through the same filters as the base.
 * - A permission group's Deny rule hides a built-in tool (gate.isHidden); MCP groups are never hidden here.
 * - Names are never duplicated: the first occurrence wins (providers refuse a request with two tools of a name).
 */
import { TN } from '../../../shared/tool-names';
import type { OpenAiToolDefinition } from '../tools/tool';
import type { ToolSpec } from '../llm/types';
import { syntheticToolSpec } from './session-tool-specs';
import type { AgentDef } from './agent-registry';
import { MAX_AGENT_DEPTH, type AgentFrame } from './frame';
import type { GrantStore, ToolGroupRegistry } from './group-registry';
import { isLazyConfigTool, toSpec } from './tool-groups';

export interface ToolSetSource {
  openaiDefinitions(): OpenAiToolDefinition[];
  openaiDefinitionsSubAgentsOnly(): OpenAiToolDefinition[];
  rootAgentOnlyNames(): string[];
  categoryOf(name: string): string | null;
}

export interface ToolSetDeps {
  tools: ToolSetSource;
  groups: ToolGroupRegistry;
  grants: GrantStore;
  isHidden: (permissionGroup: string | undefined, toolName: string) => boolean;
}

/** The interface tools a frame is offered, by name, in a stable order. */
export function interfaceToolNames(frame: AgentFrame): string[] {
  const names: string[] = [];
  if (frame.depth === 0 && frame.interactive) names.push(TN.SHOW_FILE_TO_USER, TN.EXECUTE_TASK, TN.READ_AGENT_RESULT);
  if ((frame.depth === 0 && !frame.interactive) || (frame.depth > 0 && frame.depth < MAX_AGENT_DEPTH))
    names.push(TN.EXECUTE_SUBTASK);
  if (frame.depth === 0 && !frame.interactive) names.push(TN.NOTIFY);
  names.push(TN.WRITE_TODOS, TN.UPDATE_SCRATCHPAD, TN.ACTIVATE_TOOLS);
  if (frame.agentType !== 'system') names.push(TN.ASK_USER_CLARIFICATION);
  if (frame.depth === 0 && frame.interactive) names.push(TN.READ_NOTIFICATION);
  return names;
}

/**
 * The frame with its agent's allow-list as meta.json says now, so an edit applies from the next round. An agent
 * that cannot be read right now (a half-saved file) keeps the list it had: a broken file never widens what it gets.
 */
export function withCurrentAllowList(
  frame: AgentFrame,
  agents: { get(id: string): AgentDef | { error: string } },
): AgentFrame {
  const agent = agents.get(frame.agentId);
  return 'error' in agent ? frame : { ...frame, toolAllowList: agent.tools };
}

export function toolSetFor(frame: AgentFrame, permissionGroup: string | undefined, deps: ToolSetDeps): ToolSpec[] {
  const rootOnly = frame.depth > 0 ? new Set(deps.tools.rootAgentOnlyNames()) : null;
  const allow = frame.toolAllowList ? new Set(frame.toolAllowList) : null;
  const builtinOk = (name: string) =>
    !rootOnly?.has(name) && (!allow || allow.has(name)) && !deps.isHidden(permissionGroup, name);

  const out: ToolSpec[] = [];
  const seen = new Set<string>();
  const add = (spec: ToolSpec) => {
    if (seen.has(spec.name)) return;
    seen.add(spec.name);
    out.push(spec);
  };

  for (const d of deps.tools.openaiDefinitions())
    if (!isLazyConfigTool(d, deps.tools.categoryOf(d.function.name)) && builtinOk(d.function.name)) add(toSpec(d));
  if (frame.depth > 0)
    for (const d of deps.tools.openaiDefinitionsSubAgentsOnly()) if (builtinOk(d.function.name)) add(toSpec(d));
  for (const name of interfaceToolNames(frame)) {
    const spec = syntheticToolSpec(name);
    if (spec && !deps.isHidden(permissionGroup, name)) add(spec);
  }
  for (const groupName of deps.grants.granted({ sessionId: frame.sessionId, stackId: frame.stackId })) {
    const source = deps.groups.find(groupName);
    if (!source) continue; // a grant for a group that is gone (an MCP server removed): nothing to offer
    for (const spec of source.specs(groupName)) if (!source.hideByRules || builtinOk(spec.name)) add(spec);
  }
  return out;
}

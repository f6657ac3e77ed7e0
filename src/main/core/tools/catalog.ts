/**
 * `ToolCatalog` (tools.md "ToolCatalog"): one façade over everything a rule can name — the registry's built-ins,
 * the static list of core-owned synthetic tools (so they can be configured before first use), MCP tools from the
 * injected source, and (optionally) the names `ToolDiscovery` has seen, as `dynamic`. Used by the Security page's
 * tool list. Plugin and provider tool names are deliberately not listed statically (discovery covers them).
 */
import type { LabelLength } from '../../../shared/labels';
import { TN, type ToolCategory } from '../../../shared/tool-names';
import type { ToolDiscovery } from './discovery';
import type { ToolRegistry } from './registry';
import type { ToolArgs } from './tool';

export interface ToolInfo {
  name: string;
  description: string;
  category: ToolCategory | 'dynamic' | null;
}

export interface AllTools {
  built_in: ToolInfo[];
  mcp: ToolInfo[];
  /** Offered at least once but neither built-in nor a current MCP tool (plugins, providers, removed servers). */
  dynamic: ToolInfo[];
}

/** The core-owned tools injected outside the registry (tools.md `synthetic_tools()`). */
export const SYNTHETIC_TOOLS: readonly ToolInfo[] = [
  { name: TN.EXECUTE_TASK, description: 'Start a task for a sub-agent (sync, async or cron).', category: 'subagent' },
  { name: TN.EXECUTE_SUBTASK, description: 'Run a sub-task inside a background session (sync only).', category: 'subagent' },
  { name: TN.UPDATE_SCRATCHPAD, description: 'Write a note to the scratchpad shared by the agents of a session.', category: null },
  { name: TN.ASK_USER_CLARIFICATION, description: 'Pause and ask the user a question.', category: null },
  { name: TN.WRITE_TODOS, description: "Keep the agent's private task list.", category: null },
  { name: TN.ACTIVATE_TOOLS, description: 'Activate tool groups (MCP servers, the config group) from the next round.', category: 'config' },
  { name: TN.NOTIFY, description: 'Queue a notification to the home conversation.', category: null },
  { name: TN.SHOW_FILE_TO_USER, description: "Open a file in the user's viewer.", category: null },
  { name: TN.IMAGE_GENERATE, description: 'Generate an image with a configured provider.', category: 'config' },
];

export interface ToolCatalogOptions {
  mcpTools?: () => readonly { name: string; description: string }[];
  discovery?: ToolDiscovery;
}

const byName = (a: ToolInfo, b: ToolInfo) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export class ToolCatalog {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: ToolCatalogOptions = {},
  ) {}

  listAll(): AllTools {
    const builtIn: ToolInfo[] = this.registry.listAll().map((t) => ({ ...t, category: this.registry.categoryOf(t.name) }));
    for (const s of SYNTHETIC_TOOLS) if (!this.registry.has(s.name)) builtIn.push({ ...s });
    builtIn.sort(byName);
    let mcp: ToolInfo[] = [];
    try {
      mcp = (this.options.mcpTools?.() ?? []).map((t) => ({ name: t.name, description: t.description, category: null }));
    } catch {
      mcp = []; // an MCP manager in trouble must not take the Security page down
    }
    mcp.sort(byName);
    const listed = new Set([...builtIn, ...mcp].map((t) => t.name));
    const dynamic: ToolInfo[] = (this.options.discovery?.knownTools() ?? [])
      .filter((k) => !listed.has(k.name))
      .map((k) => ({ name: k.name, description: '', category: 'dynamic' as const }));
    return { built_in: builtIn, mcp, dynamic };
  }

  describeCall(name: string, args: ToolArgs, length: LabelLength): string {
    return this.registry.describeCall(name, args, length);
  }
}

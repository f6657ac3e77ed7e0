/**
 * `ToolRegistry`: the catalogue of built-in tools, keyed by name (docs/architecture.md "Tools"), and the one place
 * that answers what any tool is (`traitsOf`, labels, target paths): it also knows the session's own tools, which the
 * session runs (tools/session/index.ts). Registration is
 * explicit and refuses a duplicate name, a name the providers would refuse, an `mcp__` name (MCP tools are
 * namespaced and can never shadow a built-in, M4), and a tool that is both sub-agents-only and root-agent-only
 * (it would be invisible to every agent). Definitions keep registration order, so the tool list the model sees is
 * stable from round to round (prompt caching). `describeCall` and `targetPath` never throw: a label is cosmetic.
 * Check ids (M4) are listed in docs/security-checks.md.
 */
import { maxLabel, truncateLabel, type LabelLength } from '../../../shared/labels';
import { MCP_PREFIX, type ToolCategory } from '../../../shared/tool-names';
import { SESSION_TOOLS } from './session/index';
import type { InterfaceTool } from './session/interface-tool';
import type {
  Normalized,
  OpenAiToolDefinition,
  Preview,
  PreviewContext,
  SecretPaths,
  Tool,
  ToolArgs,
  ToolExecution,
  ToolKind,
  ToolRunContext,
  ToolTraits,
} from './tool';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** The session's own tools (run by the session, not here), by name and by former name: their traits and labels. */
  private readonly sessionTools = new Map<string, InterfaceTool>();

  constructor(sessionTools: readonly InterfaceTool[] = SESSION_TOOLS) {
    for (const tool of sessionTools)
      for (const name of [tool.name, ...(tool.formerNames ?? [])]) this.sessionTools.set(name, tool);
  }

  register(tool: Tool): void {
    if (this.tools.has(tool.name) || this.sessionTools.has(tool.name))
      throw new Error(`Tool "${tool.name}" is already registered`);
    if (!TOOL_NAME.test(tool.name)) throw new Error(`Tool name "${tool.name}" must match ${TOOL_NAME}`);
    if (tool.name.startsWith(MCP_PREFIX)) throw new Error(`Tool name "${tool.name}" uses the reserved MCP prefix`);
    if (tool.subAgentsOnly && tool.rootAgentOnly)
      throw new Error(`Tool "${tool.name}" cannot be both sub-agents-only and root-agent-only`);
    this.tools.set(tool.name, tool);
  }

  /** Removes a tool a plugin contributed once that plugin is disabled (docs/plugins.md). */
  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  /** Where a tool's secret arguments are (set_secret's value …), or undefined for none. */
  secretPathsOf(name: string): SecretPaths | undefined {
    return this.tools.get(name)?.secretPaths;
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Root-agent tools: everything except sub-agents-only. */
  openaiDefinitions(): OpenAiToolDefinition[] {
    return this.definitions((t) => !t.subAgentsOnly);
  }

  openaiDefinitionsSubAgentsOnly(): OpenAiToolDefinition[] {
    return this.definitions((t) => t.subAgentsOnly === true);
  }

  /** The lazy `config` group, appended once the model calls `activate_tools(["config"])`. */
  openaiDefinitionsConfigOnly(): OpenAiToolDefinition[] {
    return this.definitions((t) => !t.subAgentsOnly && t.category === 'config');
  }

  rootAgentOnlyNames(): string[] {
    return [...this.tools.values()].filter((t) => t.rootAgentOnly).map((t) => t.name);
  }

  listAll(): { name: string; description: string }[] {
    return [...this.tools.values()]
      .map((t) => ({ name: t.name, description: t.description }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  categoryOf(name: string): ToolCategory | null {
    return this.tools.get(name)?.category ?? null;
  }

  isIdempotent(name: string): boolean {
    return this.tools.get(name)?.isIdempotent === true;
  }

  /**
   * What a tool says about itself (docs/tools.md "One tool shape"), built-in or the session's own; null for a name the
   * core does not know (an MCP tool), which every reader treats as the most careful case.
   */
  traitsOf(name: string): ToolTraits | null {
    const own = this.sessionTools.get(name);
    // A former name only labels old rows: nothing can call it any more.
    return this.tools.get(name) ?? (own?.name === name ? own : null);
  }

  /** Every tool the core knows (built-in, plugin, config and the session's own), for the seeds and the catalog. */
  allTraits(): ToolTraits[] {
    return [...this.tools.values(), ...new Set(this.sessionTools.values())];
  }

  kindOf(name: string): ToolKind | null {
    return this.tools.get(name)?.kind ?? null;
  }

  /** The tool's dry run for the approval card; null for names not in the registry or tools without one. */
  preview(name: string, args: ToolArgs, ctx: PreviewContext): Preview | null {
    return this.tools.get(name)?.preview(args, ctx) ?? null;
  }

  /** The tool's normalized arguments (docs/approval.md); a name not in the registry passes through as sent. */
  normalize(name: string, args: ToolArgs, workingDir: string): Normalized {
    const tool = this.tools.get(name);
    return tool ? tool.normalize(args, workingDir) : { ok: true, args };
  }

  /** Starts a cancellable execution; null for names not in the registry (MCP, interface tools: the caller's). */
  run(name: string, args: ToolArgs, ctx: ToolRunContext): ToolExecution | null {
    const tool = this.tools.get(name);
    return tool ? tool.run(args, ctx) : null;
  }

  /** A label for any call, registry or not; falls back to the bare name. */
  describeCall(name: string, args: ToolArgs, length: LabelLength): string {
    const safeArgs = args && typeof args === 'object' ? args : {};
    try {
      const tool = this.tools.get(name);
      if (tool) return truncateLabel(tool.describe(safeArgs, length), maxLabel(length));
      const own = this.sessionTools.get(name);
      return own ? own.describe(safeArgs, length, name) : truncateLabel(name, maxLabel(length));
    } catch {
      return truncateLabel(name, maxLabel(length));
    }
  }

  targetPath(name: string, args: ToolArgs): string | null {
    const safeArgs = args && typeof args === 'object' ? args : {};
    try {
      const tool = this.tools.get(name);
      return tool ? tool.targetPath(safeArgs) : (this.sessionTools.get(name)?.targetPath(safeArgs) ?? null);
    } catch {
      return null;
    }
  }

  private definitions(keep: (t: Tool) => boolean): OpenAiToolDefinition[] {
    return [...this.tools.values()].filter(keep).map((t) => t.openaiDefinition());
  }
}

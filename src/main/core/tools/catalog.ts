/**
 * `ToolCatalog` (docs/tools.md): one façade over everything a rule can name — the registry's built-ins, the
 * session's own tools (injected by the composition root, so they can be configured before first use), MCP tools
 * from the injected source, and (optionally) the names tool discovery has seen, as `dynamic`. Used by the Security
 * page's tool list. It lists only tools that exist: a test keeps it, the seeded rules and the registry in agreement.
 */
import type { ToolCategory } from '../../../shared/tool-names';
import type { ToolRegistry } from './registry';

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

/** The names of tools offered at least once (db/tool-discovery.ts's `ToolDiscovery` remembers them). */
export interface KnownToolsSource {
  knownTools(): readonly { name: string }[];
}

export interface ToolCatalogOptions {
  /** The core-owned tools that live outside the registry (the session's synthetic tools). */
  sessionTools?: () => readonly { name: string; description: string }[];
  mcpTools?: () => readonly { name: string; description: string }[];
  discovery?: KnownToolsSource;
}

const byName = (a: ToolInfo, b: ToolInfo) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export class ToolCatalog {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: ToolCatalogOptions = {},
  ) {}

  listAll(): AllTools {
    const builtIn: ToolInfo[] = this.registry
      .listAll()
      .map((t) => ({ ...t, category: this.registry.categoryOf(t.name) }));
    for (const s of this.options.sessionTools?.() ?? [])
      if (!this.registry.has(s.name)) builtIn.push({ name: s.name, description: s.description, category: null });
    builtIn.sort(byName);
    let mcp: ToolInfo[] = [];
    try {
      mcp = (this.options.mcpTools?.() ?? []).map((t) => ({
        name: t.name,
        description: t.description,
        category: null,
      }));
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
}

/**
 * `list_items(type=mcp)` rows (docs/mcp.md "Activation"): one JSON row per server with its state and what the
 * model may need to act on it: the tools it would get, the ones withheld until re-approved, the last error, and
 * whether the person still has to trust it.
 */
import type { McpManager } from './manager';
import type { McpServerRepository } from './server-repository';

/** `list_items(type=mcp)`: one JSON row per server with its state and what the model may need to act on it. */
export function listMcpItems(repo: McpServerRepository, manager: McpManager): Record<string, unknown>[] {
  return repo.list().map((server) => {
    const v = manager.view(server);
    const trusted = v.tools.filter((t) => t.status === 'trusted');
    return {
      name: v.name,
      transport: v.transport,
      state: v.state,
      enabled: v.enabled,
      trusted: v.trusted,
      tools: trusted.map((t) => t.exposedName),
      ...(v.tools.length > trusted.length
        ? { disabled_until_reapproved: v.tools.filter((t) => t.status === 'drifted').map((t) => t.exposedName) }
        : {}),
      ...(v.lastError ? { last_error: v.lastError } : {}),
      ...(v.state === 'untrusted'
        ? { note: 'Registered but not trusted: the person must trust it in Settings → MCP before it starts.' }
        : {}),
    };
  });
}

/**
 * The names MCP tools get in front of the model (docs/mcp.md "Names"): `mcp__<server>__<tool>`. Providers refuse a
 * function name over 64 characters or with characters outside `[a-zA-Z0-9_-]`; such a name is made safe
 * deterministically (bad characters → `_`, cut, plus 8 hex of the SHA-256 of the original tool name, so two tools
 * that sanitize alike stay apart) and mapped back through the server's table. A server name never holds `_`, so
 * the first `__` after the prefix always ends it.
 */
import { createHash } from 'node:crypto';
import { MCP_PREFIX } from '../../../shared/tool-names';

const PROVIDER_SAFE = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_NAME = 64;

export function exposedToolName(server: string, tool: string): string {
  const plain = `${MCP_PREFIX}${server}__${tool}`;
  if (PROVIDER_SAFE.test(plain)) return plain;
  const hash = createHash('sha256').update(tool).digest('hex').slice(0, 8);
  const cleaned = tool.replace(/[^a-zA-Z0-9_-]/g, '_');
  const room = MAX_NAME - `${MCP_PREFIX}${server}__`.length - hash.length - 1;
  return `${MCP_PREFIX}${server}__${cleaned.slice(0, Math.max(room, 1))}_${hash}`;
}

/** exposed name → original tool name, for one server's listing; a collision is a listing we refuse to expose. */
export function buildNameTable(
  server: string,
  tools: readonly string[],
): { table: Map<string, string>; collisions: string[] } {
  const table = new Map<string, string>();
  const collisions: string[] = [];
  for (const tool of tools) {
    const exposed = exposedToolName(server, tool);
    if (table.has(exposed)) collisions.push(tool);
    else table.set(exposed, tool);
  }
  return { table, collisions };
}

/**
 * The `mcpServers` JSON other apps use (Claude Desktop, Cursor, VS Code's `servers`), turned into our server
 * inputs (docs/mcp.md "Import"): `{ "mcpServers": { "<name>": { command, args, env } | { url, headers, type } } }`.
 * A name with characters we do not allow is made one (`_`, `.`, spaces → `-`) and the change is reported; an
 * entry we cannot read is reported and skipped, never guessed.
 */
import { McpServerInputSchema, MAX_MCP_SERVER_NAME, type McpServerInput } from '../../../shared/contract/mcp';

export interface ImportedEntry {
  input: McpServerInput;
  note: string | null;
}

export function parseMcpServersJson(json: string): {
  entries: ImportedEntry[];
  problems: { name: string; message: string }[];
} {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (error) {
    return { entries: [], problems: [{ name: '(file)', message: `not valid JSON: ${(error as Error).message}` }] };
  }
  const root = doc as Record<string, unknown>;
  const servers = (root?.mcpServers ?? root?.servers ?? null) as Record<string, Record<string, unknown>> | null;
  if (!servers || typeof servers !== 'object')
    return { entries: [], problems: [{ name: '(file)', message: 'no "mcpServers" object found' }] };
  const entries: ImportedEntry[] = [];
  const problems: { name: string; message: string }[] = [];
  for (const [rawName, entry] of Object.entries(servers)) {
    const name = rawName
      .replace(/[^a-zA-Z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, MAX_MCP_SERVER_NAME);
    const type = String(entry?.type ?? entry?.transport ?? '').toLowerCase();
    const isUrl = typeof entry?.url === 'string';
    const candidate = {
      name,
      transport: isUrl ? (type === 'sse' ? 'sse' : 'http') : 'stdio',
      command: isUrl ? undefined : entry?.command,
      args: isUrl ? undefined : entry?.args,
      env: isUrl ? undefined : entry?.env,
      url: isUrl ? entry.url : undefined,
      headers: isUrl ? entry?.headers : undefined,
      enabled: entry?.disabled === true ? false : undefined,
    };
    const parsed = McpServerInputSchema.safeParse(candidate);
    if (!parsed.success) {
      problems.push({
        name: rawName,
        message: parsed.error.issues.map((i) => `${i.path.join('.') || 'entry'}: ${i.message}`).join('; '),
      });
      continue;
    }
    entries.push({ input: parsed.data, note: name !== rawName ? `"${rawName}" was renamed to "${name}"` : null });
  }
  return { entries, problems };
}

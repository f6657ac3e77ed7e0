/**
 * One MCP server's live state in the manager (docs/mcp.md), and how the Settings page sees it: its record, its state
 * (`untrusted` and `disabled` come from the record, the rest from the connection; `starting` for an untouched server
 * while `startAll` has not read the servers yet), its last error, exit reason and stderr tail, and each tool with its
 * trust verdict, its canonical schema and the markers of hidden instructions in it.
 */
import type { McpServerView, McpToolView } from '../../../shared/contract/mcp';
import type { McpConnection } from './connection';
import { canonicalJson, hiddenInstructionMarkers } from './fingerprint';
import type { McpServerRecord } from './server-repository';
import type { ListedTool, TrustVerdict } from './tool-trust';

export interface ExposedTool {
  exposedName: string;
  server: string;
  tool: ListedTool;
  verdict: TrustVerdict;
}

export interface ServerState {
  state: 'starting' | 'ready' | 'failed' | 'stopped';
  lastError: string | null;
  connection: McpConnection | null;
  opening: Promise<McpConnection> | null;
  tools: ExposedTool[];
  /** exposed name → tool, of the last listing. */
  byExposed: Map<string, ExposedTool>;
}

/**
 * The view of `server`; `s` is its live state (absent: nothing has touched it), `startPending` whether `startAll` is
 * still to read the servers, `hasCredential` whether a credential is stored for it.
 */
export function serverView(
  server: McpServerRecord,
  s: ServerState | undefined,
  startPending: boolean,
  hasCredential: boolean,
): McpServerView {
  const state = !server.trusted
    ? 'untrusted'
    : !server.enabled
      ? 'disabled'
      : (s?.state ?? (startPending ? 'starting' : 'stopped'));
  const tools: McpToolView[] = (s?.tools ?? []).map((t) => {
    // Canonical (sorted keys), as the trusted copy is kept: the two compare equal unless the shape changed.
    const schema = canonicalJson(t.tool.inputSchema ?? {});
    return {
      exposedName: t.exposedName,
      name: t.tool.name,
      description: t.tool.description ?? '',
      inputSchema: schema,
      status: t.verdict.status,
      drift: t.verdict.status === 'drifted' ? t.verdict.trusted : null,
      warnings: hiddenInstructionMarkers(t.tool.description ?? '', schema),
    };
  });
  return {
    id: server.id,
    name: server.name,
    transport: server.transport,
    command: server.command,
    args: server.args,
    env: server.env,
    url: server.url,
    headers: server.headers,
    secretTarget: server.secretTarget,
    hasCredential,
    enabled: server.enabled,
    trusted: server.trusted,
    createdBy: server.createdBy,
    sandboxed: server.sandboxed,
    state,
    lastError: s?.lastError ?? null,
    exitReason: s?.connection?.exitReason() ?? null,
    stderrTail: s?.connection?.stderrTail() ?? '',
    tools,
  };
}

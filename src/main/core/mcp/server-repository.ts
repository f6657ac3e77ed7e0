/**
 * The one writer of `mcp_servers` (docs/mcp.md). A config is validated with the contract's
 * `McpServerInputSchema` (the same parse Settings, `register_mcp` and the JSON import use); the credential goes to
 * the secret store under `mcp.<name>.credential` and the row keeps only that key. `trusted` is set only by the
 * person: a server the model registers stays untrusted (it never starts, exposes no tools) until trusted in
 * Settings → MCP. A stdio server starts in the sandbox when `sandboxed` (on for the model's, always again when the
 * model registers it anew; off for the person's own); only the person flips it (`setSandboxed`).
 */
import type { McpSecretTarget, McpServerInput, McpTransport } from '../../../shared/contract/mcp';
import { McpServerInputSchema } from '../../../shared/contract/mcp';
import type { Db } from '../db/database';
import { nowMs } from '../db/database';

export interface McpServerRecord {
  id: number;
  name: string;
  transport: McpTransport;
  command: string | null;
  args: string[];
  env: Record<string, string>;
  url: string | null;
  headers: Record<string, string>;
  secretTarget: McpSecretTarget | null;
  secretKey: string | null;
  enabled: boolean;
  trusted: boolean;
  createdBy: 'user' | 'model';
  /** A stdio server starts in the sandbox (docs/sandbox.md "MCP servers"); the person's switch. */
  sandboxed: boolean;
}

interface Row {
  id: number;
  name: string;
  transport: McpTransport;
  command: string | null;
  args_json: string;
  env_json: string;
  url: string | null;
  headers_json: string;
  secret_target: string | null;
  secret_key: string | null;
  enabled: number;
  trusted: number;
  created_by: 'user' | 'model';
  sandboxed: number;
}

/** What the repository needs of the secret store. */
export interface CredentialStore {
  set(key: string, value: string | null): boolean;
  get(key: string): string | null;
  has(key: string): boolean;
}

export const credentialKey = (server: string) => `mcp.${server}.credential`;

function record(row: Row): McpServerRecord {
  return {
    id: row.id,
    name: row.name,
    transport: row.transport,
    command: row.command,
    args: JSON.parse(row.args_json) as string[],
    env: JSON.parse(row.env_json) as Record<string, string>,
    url: row.url,
    headers: JSON.parse(row.headers_json) as Record<string, string>,
    secretTarget: row.secret_target ? (JSON.parse(row.secret_target) as McpSecretTarget) : null,
    secretKey: row.secret_key,
    enabled: row.enabled === 1,
    trusted: row.trusted === 1,
    createdBy: row.created_by,
    sandboxed: row.sandboxed === 1,
  };
}

export class McpServerRepository {
  constructor(
    private readonly db: Db,
    private readonly secrets: CredentialStore,
  ) {}

  list(): McpServerRecord[] {
    return (this.db.prepare('SELECT * FROM mcp_servers ORDER BY name').all() as Row[]).map(record);
  }

  get(name: string): McpServerRecord | null {
    const row = this.db.prepare('SELECT * FROM mcp_servers WHERE name = ?').get(name) as Row | undefined;
    return row ? record(row) : null;
  }

  /**
   * Inserts or replaces a server by name (the upsert `register_mcp` and Settings share). Throws a `ZodError` for a
   * bad config. `by` decides trust: the person's config is trusted, the model's is not; replacing a server from
   * the model also withdraws its trust, so a model cannot swap the command of a server the person trusted.
   */
  upsert(input: unknown, by: 'user' | 'model'): McpServerRecord {
    const v: McpServerInput = McpServerInputSchema.parse(input);
    const now = nowMs();
    const key = v.credential || v.secretTarget ? credentialKey(v.name) : null;
    const trusted = by === 'user' ? 1 : 0;
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO mcp_servers (name, transport, command, args_json, env_json, url, headers_json, secret_target, secret_key, enabled, trusted, created_by, sandboxed, created_at, updated_at)
           VALUES (@name, @transport, @command, @args, @env, @url, @headers, @target, @key, @enabled, @trusted, @by, @sandboxed, @now, @now)
           ON CONFLICT (name) DO UPDATE SET transport = excluded.transport, command = excluded.command, args_json = excluded.args_json,
             env_json = excluded.env_json, url = excluded.url, headers_json = excluded.headers_json, secret_target = excluded.secret_target,
             secret_key = excluded.secret_key, enabled = excluded.enabled, trusted = excluded.trusted, created_by = excluded.created_by,
             sandboxed = CASE WHEN excluded.created_by = 'model' THEN 1 ELSE mcp_servers.sandboxed END,
             updated_at = excluded.updated_at`,
        )
        .run({
          name: v.name,
          transport: v.transport,
          command: v.transport === 'stdio' ? (v.command ?? null) : null,
          args: JSON.stringify(v.args ?? []),
          env: JSON.stringify(v.env ?? {}),
          url: v.transport === 'stdio' ? null : (v.url ?? null),
          headers: JSON.stringify(v.headers ?? {}),
          target: v.secretTarget ? JSON.stringify(v.secretTarget) : null,
          key,
          enabled: v.enabled === false ? 0 : 1,
          trusted,
          by,
          // The model's server always (re)starts sandboxed; the person's keeps the switch they set (off when new).
          sandboxed: by === 'model' ? 1 : 0,
          now,
        });
      if (v.credential) this.secrets.set(credentialKey(v.name), v.credential);
      else if (!v.secretTarget) this.secrets.set(credentialKey(v.name), null);
    })();
    return this.get(v.name)!;
  }

  /** Deletes the row, its tool trust (cascade) and its stored credential. False when there was no such server. */
  delete(name: string): boolean {
    const removed = this.db.prepare('DELETE FROM mcp_servers WHERE name = ?').run(name).changes > 0;
    if (removed) {
      this.secrets.set(credentialKey(name), null);
      this.db.prepare('DELETE FROM session_mcp_grants WHERE mcp_name = ?').run(name);
    }
    return removed;
  }

  setEnabled(name: string, enabled: boolean): boolean {
    return (
      this.db
        .prepare('UPDATE mcp_servers SET enabled = ?, updated_at = ? WHERE name = ?')
        .run(enabled ? 1 : 0, nowMs(), name).changes > 0
    );
  }

  /** The person's switch: whether the server's process starts in the sandbox. */
  setSandboxed(name: string, sandboxed: boolean): boolean {
    return (
      this.db
        .prepare('UPDATE mcp_servers SET sandboxed = ?, updated_at = ? WHERE name = ?')
        .run(sandboxed ? 1 : 0, nowMs(), name).changes > 0
    );
  }

  setTrusted(name: string): boolean {
    return (
      this.db.prepare('UPDATE mcp_servers SET trusted = 1, updated_at = ? WHERE name = ?').run(nowMs(), name).changes >
      0
    );
  }

  hasCredential(server: McpServerRecord): boolean {
    return server.secretKey !== null && this.secrets.has(server.secretKey);
  }

  /** The stored credential, read only when the server starts; never logged. */
  credential(server: McpServerRecord): string | null {
    return server.secretKey ? this.secrets.get(server.secretKey) : null;
  }
}

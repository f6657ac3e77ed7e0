/**
 * MCP servers and the trust kept for their tools (docs/mcp.md). A server's credential (API key, header value) is a
 * key of the secret store, never a value here. `mcp_tool_trust` keeps one fingerprint per tool from the moment it
 * was first trusted; a changed listing parks the new version in `drift_*` until the person re-approves it.
 */
import type { Migration } from '../migrate';

export const mcpSchema: Migration = {
  version: 91,
  name: 'mcp-servers',
  up(db) {
    db.exec(`
      CREATE TABLE mcp_servers (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        transport TEXT NOT NULL CHECK (transport IN ('stdio', 'http', 'sse')),
        command TEXT,
        args_json TEXT NOT NULL DEFAULT '[]',
        env_json TEXT NOT NULL DEFAULT '{}',
        url TEXT,
        headers_json TEXT NOT NULL DEFAULT '{}',
        secret_target TEXT,
        secret_key TEXT,
        enabled INTEGER NOT NULL DEFAULT 1,
        trusted INTEGER NOT NULL DEFAULT 0,
        created_by TEXT NOT NULL CHECK (created_by IN ('user', 'model')),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE mcp_tool_trust (
        server_name TEXT NOT NULL REFERENCES mcp_servers(name) ON DELETE CASCADE ON UPDATE CASCADE,
        tool_name TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        description TEXT NOT NULL,
        input_schema TEXT NOT NULL,
        drift_fingerprint TEXT,
        drift_description TEXT,
        drift_schema TEXT,
        trusted_at INTEGER NOT NULL,
        PRIMARY KEY (server_name, tool_name)
      );
    `);
  },
};

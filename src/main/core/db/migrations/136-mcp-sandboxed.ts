/**
 * A per-server sandbox switch for MCP stdio servers (docs/sandbox.md "MCP servers"): `mcp_servers.sandboxed`, 1 = the
 * server's process starts in the sandbox. On for the servers the model registered (as they ran until now), off for
 * the person's own; only the person changes it (Settings → MCP), and the model registering a server again turns it
 * back on (server-repository.ts).
 */
import type { Migration } from '../migrate';

export const mcpSandboxed: Migration = {
  version: 136,
  name: 'mcp-sandboxed',
  up(db) {
    db.exec(`
      ALTER TABLE mcp_servers ADD COLUMN sandboxed INTEGER NOT NULL DEFAULT 0 CHECK (sandboxed IN (0, 1));
      UPDATE mcp_servers SET sandboxed = 1 WHERE created_by = 'model';
    `);
  },
};

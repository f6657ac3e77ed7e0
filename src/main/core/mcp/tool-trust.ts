/**
 * The one writer of `mcp_tool_trust` (docs/mcp.md "Drift"). When a trusted server lists its tools, each tool is
 * compared with the fingerprint kept from the first time it was trusted:
 * - never seen → first seen: trusted now (the person trusted the server), fingerprint kept;
 * - same fingerprint → trusted (a drift parked earlier and since undone is cleared);
 * - different → drifted: the new version is parked in `drift_*` and the tool is withheld until `approve`.
 * Rows are never removed when a tool is missing from one listing, so a tool that disappears and comes back
 * changed is still flagged.
 */
import type { Db } from '../db/database';
import { nowMs } from '../db/database';
import { canonicalJson, toolFingerprint } from './fingerprint';

export interface ListedTool {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

export type TrustVerdict =
  | { status: 'trusted' }
  | { status: 'drifted'; trusted: { description: string; inputSchema: string } };

interface Row {
  tool_name: string;
  fingerprint: string;
  description: string;
  input_schema: string;
  drift_fingerprint: string | null;
}

export class ToolTrustStore {
  constructor(private readonly db: Db) {}

  reconcile(server: string, tools: readonly ListedTool[]): Map<string, TrustVerdict> {
    const rows = new Map(
      (this.db.prepare('SELECT * FROM mcp_tool_trust WHERE server_name = ?').all(server) as Row[]).map((r) => [
        r.tool_name,
        r,
      ]),
    );
    const verdicts = new Map<string, TrustVerdict>();
    const insert = this.db.prepare(
      'INSERT INTO mcp_tool_trust (server_name, tool_name, fingerprint, description, input_schema, trusted_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const park = this.db.prepare(
      'UPDATE mcp_tool_trust SET drift_fingerprint = ?, drift_description = ?, drift_schema = ? WHERE server_name = ? AND tool_name = ?',
    );
    this.db.transaction(() => {
      for (const tool of tools) {
        const fingerprint = toolFingerprint(tool);
        const description = tool.description ?? '';
        const schema = canonicalJson(tool.inputSchema ?? {});
        const row = rows.get(tool.name);
        if (!row) {
          insert.run(server, tool.name, fingerprint, description, schema, nowMs());
          verdicts.set(tool.name, { status: 'trusted' });
        } else if (row.fingerprint === fingerprint) {
          if (row.drift_fingerprint !== null) park.run(null, null, null, server, tool.name);
          verdicts.set(tool.name, { status: 'trusted' });
        } else {
          if (row.drift_fingerprint !== fingerprint) park.run(fingerprint, description, schema, server, tool.name);
          verdicts.set(tool.name, {
            status: 'drifted',
            trusted: { description: row.description, inputSchema: row.input_schema },
          });
        }
      }
    })();
    return verdicts;
  }

  /** The parked version becomes the trusted one. False when the tool has no pending drift. */
  approve(server: string, tool: string): boolean {
    return (
      this.db
        .prepare(
          `UPDATE mcp_tool_trust SET fingerprint = drift_fingerprint, description = drift_description, input_schema = drift_schema,
             drift_fingerprint = NULL, drift_description = NULL, drift_schema = NULL, trusted_at = ?
           WHERE server_name = ? AND tool_name = ? AND drift_fingerprint IS NOT NULL`,
        )
        .run(nowMs(), server, tool).changes > 0
    );
  }
}

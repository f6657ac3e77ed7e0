/**
 * Activation groups (docs/mcp.md "Activation"): tool sets that are not offered to the model until activated for
 * a session (`session_mcp_grants`), from the next round on. A source (the MCP manager: one group per server)
 * registers itself and answers which groups it owns and their tool specs; the session loop appends the specs of
 * the session's granted groups to the always-on tools. Registration returns its own disposer.
 */
import type { Db } from '../db/database';
import type { ToolSpec } from './ports';

export interface ToolGroupSource {
  /** Every group this source owns, with a one-line status for replies and listings. */
  list(): { name: string; summary: string }[];
  has(name: string): boolean;
  /** The group's tools as the model sees them; empty while the group cannot serve (not ready). */
  specs(name: string): ToolSpec[];
}

export class ToolGroupRegistry {
  private readonly sources = new Set<ToolGroupSource>();

  register(source: ToolGroupSource): () => void {
    this.sources.add(source);
    return () => this.sources.delete(source);
  }

  find(name: string): ToolGroupSource | null {
    for (const s of this.sources) if (s.has(name)) return s;
    return null;
  }

  list(): { name: string; summary: string }[] {
    return [...this.sources].flatMap((s) => s.list());
  }

  specsFor(names: readonly string[]): ToolSpec[] {
    return names.flatMap((name) => this.find(name)?.specs(name) ?? []);
  }
}

export function sessionGrants(db: Db, sessionId: number): string[] {
  return (db.prepare('SELECT mcp_name FROM session_mcp_grants WHERE session_id = ? ORDER BY rowid').all(sessionId) as { mcp_name: string }[]).map((r) => r.mcp_name);
}

export function grantForSession(db: Db, sessionId: number, name: string): boolean {
  return db.prepare('INSERT OR IGNORE INTO session_mcp_grants (session_id, mcp_name) VALUES (?, ?)').run(sessionId, name).changes > 0;
}

/**
 * Activation groups (docs/mcp.md "Activation", docs/agents.md "activate_tools"): tool sets that are not offered to
 * the model until activated, from the next round on: for the session at depth 0 (`session_mcp_grants`, cleared by
 * `/resettools`), for one child stack in a sub-agent (`stack_mcp_grants`, dropped when the stack ends). A source
 * (the built-in `config` group; the MCP manager, one group per server) registers itself and answers which groups
 * it owns and their tool specs; agents/tool-sets.ts appends the specs of the frame's granted groups. A source of
 * built-in tools says `hideByRules`, so a permission group's Deny rule still hides them (MCP tools never are).
 * Registration returns its own disposer. `GrantStore` is the one reader and writer of the two grant tables.
 */
import type { Db } from '../db/database';
import type { ToolSpec } from '../llm/types';

export interface ToolGroupSource {
  /** Every group this source owns, with a one-line status for replies and listings. */
  list(): { name: string; summary: string }[];
  has(name: string): boolean;
  /** The group's tools as the model sees them; empty while the group cannot serve (not ready). */
  specs(name: string): ToolSpec[];
  /** Built-in tools: filtered like every built-in (Deny rules, a sub-agent's allow-list, root-only). Default false. */
  hideByRules?: boolean;
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

/** Who holds a grant: the session (depth 0) or one child stack. */
export type GrantOwner = { sessionId: number; stackId: number | null };

export class GrantStore {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      grantSession: db.prepare('INSERT OR IGNORE INTO session_mcp_grants (session_id, mcp_name) VALUES (?, ?)'),
      grantStack: db.prepare('INSERT OR IGNORE INTO stack_mcp_grants (stack_id, mcp_name) VALUES (?, ?)'),
      ofSession: db.prepare('SELECT mcp_name FROM session_mcp_grants WHERE session_id = ? ORDER BY rowid'),
      ofStack: db.prepare('SELECT mcp_name FROM stack_mcp_grants WHERE stack_id = ? ORDER BY rowid'),
      dropStack: db.prepare('DELETE FROM stack_mcp_grants WHERE stack_id = ?'),
      dropSession: db.prepare('DELETE FROM session_mcp_grants WHERE session_id = ?'),
    };
  }

  /** Returns how many of the names were new grants. */
  grant(owner: GrantOwner, names: readonly string[]): number {
    let added = 0;
    for (const name of names) {
      added += (
        owner.stackId === null
          ? this.q.grantSession.run(owner.sessionId, name)
          : this.q.grantStack.run(owner.stackId, name)
      ).changes;
    }
    return added;
  }

  granted(owner: GrantOwner): string[] {
    const rows = (
      owner.stackId === null ? this.q.ofSession.all(owner.sessionId) : this.q.ofStack.all(owner.stackId)
    ) as { mcp_name: string }[];
    return rows.map((r) => r.mcp_name);
  }

  dropStack(stackId: number): void {
    this.q.dropStack.run(stackId);
  }

  /** `/resettools`: the session's groups are offered no more; returns how many were dropped. */
  clearSession(sessionId: number): number {
    return this.q.dropSession.run(sessionId).changes;
  }
}

export function sessionGrants(db: Db, sessionId: number): string[] {
  return new GrantStore(db).granted({ sessionId, stackId: null });
}

export function grantForSession(db: Db, sessionId: number, name: string): boolean {
  return new GrantStore(db).grant({ sessionId, stackId: null }, [name]) > 0;
}

/**
 * Session bypasses (reference-facts.md §3, SPEC.md §3.7, §4): a human's time-boxed "don't ask me again" that lifts
 * require → allow for one session, by scope: every tool, one tool category, or one MCP server. Several may coexist;
 * expired ones are pruned lazily on read; all of a session's go when the session ends (`clearSession`) or the app
 * exits (memory only, never persisted). A bypass never lifts a deny or a locked guard: the gate asks it last.
 * Only the approval manager (a human's resolve) grants one: no tool can reach this store (check C2).
 */
import { parseMcpToolName, type ToolCategory } from '../../../shared/tool-names';

export type BypassScope = { kind: 'all' } | { kind: 'category'; category: ToolCategory } | { kind: 'mcp_server'; server: string };

export interface BypassGrant {
  sessionId: number;
  scope: BypassScope;
  /** Epoch ms; null = until the session ends. */
  expiresAt: number | null;
  grantedAt: number;
}

const sameScope = (a: BypassScope, b: BypassScope) =>
  a.kind === b.kind && (a.kind !== 'category' || a.category === (b as { category: string }).category) && (a.kind !== 'mcp_server' || a.server === (b as { server: string }).server);

export function describeScope(scope: BypassScope): string {
  if (scope.kind === 'all') return 'every tool';
  if (scope.kind === 'category') return `the ${scope.category} tools`;
  return `the tools of MCP server ${scope.server}`;
}

/** The narrowest scope that covers this tool: its category, else its MCP server, else everything. */
export function autoScope(toolName: string, category: ToolCategory | null): BypassScope {
  if (category) return { kind: 'category', category };
  const mcp = parseMcpToolName(toolName);
  if (mcp) return { kind: 'mcp_server', server: mcp.server };
  return { kind: 'all' };
}

export class BypassStore {
  private readonly grants = new Map<number, BypassGrant[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A grant for the same scope replaces the older one (the newest expiry is what the person just chose). */
  grant(sessionId: number, scope: BypassScope, expiresAt: number | null): BypassGrant {
    const list = (this.grants.get(sessionId) ?? []).filter((g) => !sameScope(g.scope, scope));
    const grant: BypassGrant = { sessionId, scope, expiresAt, grantedAt: this.now() };
    list.push(grant);
    this.grants.set(sessionId, list);
    return grant;
  }

  /** The live grant that covers this call, if any. */
  covering(sessionId: number, toolName: string, category: ToolCategory | null): BypassGrant | null {
    const server = parseMcpToolName(toolName)?.server ?? null;
    for (const g of this.live(sessionId)) {
      if (g.scope.kind === 'all') return g;
      if (g.scope.kind === 'category' && category !== null && g.scope.category === category) return g;
      if (g.scope.kind === 'mcp_server' && server !== null && g.scope.server === server) return g;
    }
    return null;
  }

  list(sessionId?: number): BypassGrant[] {
    const ids = sessionId === undefined ? [...this.grants.keys()] : [sessionId];
    return ids.flatMap((id) => this.live(id));
  }

  revoke(sessionId: number, scope?: BypassScope): number {
    const before = this.grants.get(sessionId) ?? [];
    const after = scope ? before.filter((g) => !sameScope(g.scope, scope)) : [];
    if (after.length) this.grants.set(sessionId, after);
    else this.grants.delete(sessionId);
    return before.length - after.length;
  }

  clearSession(sessionId: number): void {
    this.grants.delete(sessionId);
  }

  private live(sessionId: number): BypassGrant[] {
    const list = this.grants.get(sessionId);
    if (!list) return [];
    const now = this.now();
    const alive = list.filter((g) => g.expiresAt === null || g.expiresAt > now);
    if (alive.length !== list.length) {
      if (alive.length) this.grants.set(sessionId, alive);
      else this.grants.delete(sessionId);
    }
    return alive;
  }
}

/**
 * Session bypasses: a human's time-boxed "don't ask me again" that lifts require → allow for one session, within a
 * scope the person saw spelled out before the click (docs/bypass.md). Scopes, narrowest first:
 *   - `tool_path`: one tool on paths under one folder (canonical, symlinks resolved), e.g. `edit_file` under `src/`;
 *   - `command`:   `execute_cmd` when every simple command of it starts with one of these names, e.g. `git *`;
 *   - `tool`:      one tool, any arguments (tools without a path, MCP tools);
 *   - `category`, `mcp_server`, `all`: wider, offered only as explicit choices.
 * `optionsFor` lists what a card may offer for one call (the narrowest first: the default); the manager grants only
 * an offered scope. Several grants may coexist; expired ones are pruned lazily on read; a session's go when it ends
 * or the app exits (memory only, never persisted). A bypass never lifts a deny or a locked guard, and never covers
 * a shell command with unsafe constructs: the gate asks it last. Only a human's resolve grants one; no tool can
 * reach this store.
 * Limits: command names are compared as written (`/usr/bin/git` is not `git`, so it asks); a path-less call of a
 * path tool is not covered by `tool_path`.
 */
import { statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { parseMcpToolName, type ToolCategory } from '../../../shared/tool-names';
import type { ToolTraits } from '../../../shared/tool-traits';
import { canonicalizeForPolicy, displayPath } from '../tools/_policy/paths';

export type BypassScope =
  | { kind: 'tool_path'; tool: string; folder: string }
  | { kind: 'command'; commands: string[] }
  | { kind: 'tool'; tool: string }
  | { kind: 'category'; category: ToolCategory }
  | { kind: 'mcp_server'; server: string }
  | { kind: 'all' };

export type BypassKind = BypassScope['kind'];
export const BYPASS_KINDS = [
  'tool_path',
  'command',
  'tool',
  'category',
  'mcp_server',
  'all',
] as const satisfies readonly BypassKind[];

export interface BypassGrant {
  /** Unique for the app's run: what the card and the Inbox revoke. */
  id: number;
  sessionId: number;
  scope: BypassScope;
  /** What the scope covers, in words (`` `git *` commands ``); code in backticks. */
  label: string;
  /** Epoch ms; null = until the session ends. */
  expiresAt: number | null;
  grantedAt: number;
  /** The call whose approval granted it, when there was one. */
  toolCallId: string | null;
}

/** One choice a card offers. */
export interface BypassOption {
  scope: BypassScope;
  label: string;
}

/** What the gate knows of a call when it asks whether a bypass covers it. */
export interface BypassTarget {
  toolName: string;
  category: ToolCategory | null;
  /** Canonical absolute path with `/` separators (the one rules see); null for a call without a path. */
  path: string | null;
  /** For a tool with a command (its `commandKey`): its simple commands, words joined by single spaces; else null. */
  commandParts: string[] | null;
}

/** The command-name part of a family: a plain name, never a path, quote, escape or expansion. */
const PLAIN_COMMAND = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;
const slash = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));
const firstWord = (part: string) => part.split(' ', 1)[0] ?? '';
const inFolder = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

function sameScope(a: BypassScope, b: BypassScope): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The one way a scope is put in words: the card's choices, the Inbox, and the gate's "why" all use it. */
export function describeScope(scope: BypassScope, workspaceDir?: string): string {
  switch (scope.kind) {
    case 'tool_path': {
      if (workspaceDir && scope.folder === slash(workspaceDir)) return `\`${scope.tool}\` anywhere in the workspace`;
      const shown = workspaceDir ? displayPath(scope.folder, slash(workspaceDir)) : scope.folder;
      return `\`${scope.tool}\` under \`${shown}${shown.endsWith('/') ? '' : '/'}\``;
    }
    case 'command':
      return `${scope.commands.map((c) => `\`${c} *\``).join(' and ')} commands`;
    case 'tool':
      return `\`${scope.tool}\`, any arguments`;
    case 'category':
      return `every ${scope.category} tool`;
    case 'mcp_server':
      return `every tool of MCP server \`${scope.server}\``;
    case 'all':
      return 'every tool';
  }
}

export interface BypassOptionsDeps {
  /** Canonical workspace folder, for labels. */
  workspaceDir: string;
  /** The parts of a command, as the gate cuts them; null when it cannot be cut cleanly (then no `command` scope). */
  commandParts: (command: string, workdir: string) => string[] | null;
  /** What the tool says about itself (docs/tools.md "One tool shape"): its command and secret arguments. */
  traitsOf: (toolName: string) => ToolTraits | null;
}

/**
 * The scopes a card offers for this call, narrowest first. Every call gets `all`; a call whose narrow scope cannot
 * be worked out (no path, a command that does not parse or has a path-invoked program) simply lacks that choice.
 */
export function optionsFor(
  call: { toolName: string; category: ToolCategory | null; args: Record<string, unknown> },
  deps: BypassOptionsDeps,
): BypassOption[] {
  // `set_secret` always asks (the gate's locked `secret_value` guard, which no bypass lifts): a bypass offered on its
  // card would claim to stop asking for something that will ask again, so its card offers none.
  const tool = deps.traitsOf(call.toolName);
  if (tool?.storesSecret) return [];
  const ws = canonicalizeForPolicy(deps.workspaceDir, deps.workspaceDir);
  const scopes: BypassScope[] = [];
  const mcp = parseMcpToolName(call.toolName);
  if (tool?.commandKey) {
    const given = call.args[tool.commandKey];
    const command = typeof given === 'string' ? given : '';
    const workdir = typeof call.args.workdir === 'string' && call.args.workdir ? call.args.workdir : ws;
    const parts = command.trim() ? deps.commandParts(command, workdir) : null;
    const names = parts?.length ? [...new Set(parts.map(firstWord))] : [];
    if (names.length && names.length <= 4 && names.every((n) => PLAIN_COMMAND.test(n)))
      scopes.push({ kind: 'command', commands: names.sort() });
  } else if (typeof call.args.path === 'string' && call.args.path !== '') {
    const canon = canonicalizeForPolicy(call.args.path, ws);
    scopes.push({ kind: 'tool_path', tool: call.toolName, folder: slash(isDirectory(canon) ? canon : dirname(canon)) });
    scopes.push({ kind: 'tool', tool: call.toolName });
  } else {
    scopes.push({ kind: 'tool', tool: call.toolName });
  }
  if (call.category) scopes.push({ kind: 'category', category: call.category });
  if (mcp) scopes.push({ kind: 'mcp_server', server: mcp.server });
  scopes.push({ kind: 'all' });
  return scopes.map((scope) => ({ scope, label: describeScope(scope, ws) }));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function covers(scope: BypassScope, target: BypassTarget): boolean {
  switch (scope.kind) {
    case 'all':
      return true;
    case 'category':
      return target.category !== null && target.category === scope.category;
    case 'mcp_server':
      return parseMcpToolName(target.toolName)?.server === scope.server;
    case 'tool':
      return target.toolName === scope.tool;
    case 'tool_path':
      return target.toolName === scope.tool && target.path !== null && inFolder(target.path, scope.folder);
    case 'command':
      return (
        target.commandParts !== null &&
        target.commandParts.length > 0 &&
        target.commandParts.every((part) => scope.commands.includes(firstWord(part)))
      );
  }
}

export class BypassStore {
  private readonly grants = new Map<number, BypassGrant[]>();
  private nextId = 1;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly workspaceDir?: string,
  ) {}

  /** A grant for the same scope replaces the older one (the newest expiry is what the person just chose). */
  grant(
    sessionId: number,
    scope: BypassScope,
    expiresAt: number | null,
    toolCallId: string | null = null,
  ): BypassGrant {
    const list = (this.grants.get(sessionId) ?? []).filter((g) => !sameScope(g.scope, scope));
    const grant: BypassGrant = {
      id: this.nextId++,
      sessionId,
      scope,
      label: describeScope(scope, this.workspaceDir),
      expiresAt,
      grantedAt: this.now(),
      toolCallId,
    };
    list.push(grant);
    this.grants.set(sessionId, list);
    return grant;
  }

  /** The live grant that covers this call, if any. */
  covering(sessionId: number, target: BypassTarget): BypassGrant | null {
    return this.live(sessionId).find((g) => covers(g.scope, target)) ?? null;
  }

  list(sessionId?: number): BypassGrant[] {
    const ids = sessionId === undefined ? [...this.grants.keys()] : [sessionId];
    return ids.flatMap((id) => this.live(id));
  }

  /** Revokes one grant (by id) or all of the session's; returns how many went. */
  revoke(sessionId: number, grantId?: number): number {
    const before = this.grants.get(sessionId) ?? [];
    const after = grantId === undefined ? [] : before.filter((g) => g.id !== grantId);
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

/**
 * `McpManager`: every configured MCP server, its live connection and its state (docs/mcp.md).
 * - `startAll()` starts each enabled, trusted server in the background and returns at once: launch never waits
 *   for a server, and a server that hangs only ever delays its own tools. The servers show `starting` at once; their
 *   configuration is read and they spawn after the first screen's data is answered (docs/mcp.md "Lifecycle").
 * - State per server: `starting`, `ready`, `failed` (with the last error, exit reason and stderr tail),
 *   `disabled`, `untrusted` (registered by the model, not yet trusted by the person: never started, M1), `stopped`.
 * - Tools are exposed as `mcp__<server>__<tool>` (made provider-safe, mapped back), after the drift check: a tool
 *   whose fingerprint changed since it was trusted is withheld until re-approved.
 * - A call to a server that died or failed reconnects first ("the next use reconnects"); a server dying during a
 *   call fails that call only.
 * - Stop, disable, delete and dispose close the connection, which kills a stdio server's process group.
 * Check ids (M1) are listed in docs/security-checks.md.
 */
import type { McpEvent, McpServerView } from '../../../shared/contract/mcp';
import type { ToolSpec } from '../llm/types';
import { scrubEnv } from '../tools/shell/env-scrub';
import { McpConnection, type CallOptions, type ElicitationRequest } from './connection';
import { loginShellPath } from './login-path';
import type { McpServerRecord, McpServerRepository } from './server-repository';
import type { ProcessRecorder, StdioSandbox } from './stdio-transport';
import { buildNameTable } from './tool-names';
import type { ListedTool, ToolTrustStore } from './tool-trust';
import { serverView, type ServerState } from './server-state';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpPrompt, McpResource, ResourceInsert } from './prompts';

export interface McpManagerDeps {
  repo: McpServerRepository;
  trust: ToolTrustStore;
  emit: (event: McpEvent) => void;
  elicit: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;
  /** The folder stdio servers start in. */
  cwd: string;
  /**
   * How a stdio server starts inside the sandbox (docs/sandbox.md "MCP servers"): used for the servers the model
   * registered; the person's own start as they are.
   */
  sandbox?: StdioSandbox;
  processes?: ProcessRecorder;
  secretValues?: () => readonly string[];
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** The environment stdio servers start from (default: scrubbed `process.env` with the login PATH). */
  baseEnv?: () => Promise<Record<string, string>>;
  startTimeoutMs?: number;
  callTimeoutMs?: number;
}

/** How long listing the servers' prompts, or filling one in, may take (the person is waiting for a menu). */
export const PROMPTS_LIST_MS = 10_000;

export class McpError extends Error {
  override readonly name = 'McpError';
}

export class McpManager {
  private readonly states = new Map<string, ServerState>();
  /** Servers `startAll` will start, in order; a stop takes a server out. */
  private readonly queued = new Set<string>();
  /** `startAll` was asked and its servers are not read yet: an untouched enabled, trusted server lists as `starting`. */
  private startPending = false;
  private disposed = false;

  constructor(private readonly deps: McpManagerDeps) {}

  /**
   * Starts every enabled, trusted server in the background and never awaits one. Each shows `starting` at once; the
   * processes spawn once `after` has settled (the core passes: the first screen's data answered, or a delay), one
   * per turn of the event loop: spawning is synchronous work, and a server's own start is CPU the first window would
   * compete with on a small machine. Until then nothing is read or sent either: `view` shows every enabled, trusted
   * server that nothing has touched yet as `starting`, and the configuration is read, the states set and their
   * events sent when `after` settles, so the launch costs the same with servers configured as without. A call that
   * needs a server sooner starts it at once (`open`); one stopped, disabled or deleted meanwhile is not started.
   */
  startAll(after: Promise<unknown> = Promise.resolve()): void {
    this.startPending = true;
    const next = () => {
      const [name] = this.queued;
      if (name === undefined || this.disposed) return;
      this.queued.delete(name);
      void this.open(name).catch(() => undefined);
      setTimeout(next, 0);
    };
    const begin = () => {
      if (!this.startPending) return;
      this.startPending = false;
      if (this.disposed) return;
      for (const server of this.deps.repo.list()) {
        // A server with a state of its own was started, stopped or failed meanwhile: that stands.
        if (!server.enabled || !server.trusted || this.states.has(server.name)) continue;
        this.queued.add(server.name);
        this.stateOf(server.name).state = 'starting';
        this.changed(server.name);
      }
      next();
    };
    // On a later turn of the event loop than `after`'s: the answer that settles it leaves first.
    const later = () => void setTimeout(begin, 0);
    after.then(later, later);
  }

  private stateOf(name: string): ServerState {
    let s = this.states.get(name);
    if (!s)
      this.states.set(
        name,
        (s = { state: 'stopped', lastError: null, connection: null, opening: null, tools: [], byExposed: new Map() }),
      );
    return s;
  }

  private changed(name: string): void {
    this.deps.emit({ type: 'server_changed', name });
  }

  /** The ready connection of a server, connecting (again) when it is not. Rejects with a readable reason. */
  open(name: string): Promise<McpConnection> {
    const s = this.stateOf(name);
    if (s.connection?.isOpen()) return Promise.resolve(s.connection);
    if (s.opening) return s.opening;
    const server = this.deps.repo.get(name);
    if (!server) return Promise.reject(new McpError(`There is no MCP server named "${name}".`));
    if (!server.trusted)
      return Promise.reject(
        new McpError(`The MCP server "${name}" is not trusted yet: the person must trust it in Settings → MCP.`),
      );
    if (!server.enabled) return Promise.reject(new McpError(`The MCP server "${name}" is disabled.`));
    if (this.disposed) return Promise.reject(new McpError('The app is shutting down.'));
    s.state = 'starting';
    s.lastError = null;
    this.changed(name);
    const connection = this.connectionFor(server);
    s.connection = connection;
    s.opening = (async () => {
      try {
        const listed = await connection.open();
        if (s.connection !== connection) throw new McpError(`The MCP server "${name}" was stopped while it started.`);
        this.applyListing(name, listed);
        s.state = 'ready';
        return connection;
      } catch (error) {
        if (s.connection === connection) {
          s.state = 'failed';
          s.lastError = (error as Error).message;
          s.connection = null;
          this.deps.log('mcp server failed to start', { server: name, error: (error as Error).message });
        }
        throw error instanceof McpError ? error : new McpError((error as Error).message);
      } finally {
        s.opening = null;
        this.changed(name);
      }
    })();
    return s.opening;
  }

  private connectionFor(server: McpServerRecord): McpConnection {
    const s = this.stateOf(server.name);
    const connection: McpConnection = new McpConnection({
      server,
      credential: this.deps.repo.credential(server),
      baseEnv:
        this.deps.baseEnv ??
        (async () => ({ ...scrubEnv(process.env, this.deps.secretValues?.() ?? []), PATH: await loginShellPath() })),
      cwd: this.deps.cwd,
      processes: this.deps.processes,
      sandbox: server.sandboxed ? this.deps.sandbox : undefined,
      elicit: this.deps.elicit,
      startTimeoutMs: this.deps.startTimeoutMs,
      callTimeoutMs: this.deps.callTimeoutMs,
      onClosed: (reason) => {
        if (s.connection !== connection) return;
        s.state = 'failed';
        s.lastError = reason;
        s.connection = null;
        this.deps.log('mcp server stopped', { server: server.name, reason });
        this.changed(server.name);
      },
    });
    return connection;
  }

  private applyListing(name: string, listed: ListedTool[]): void {
    const s = this.stateOf(name);
    const verdicts = this.deps.trust.reconcile(name, listed);
    const { table, collisions } = buildNameTable(
      name,
      listed.map((t) => t.name),
    );
    if (collisions.length)
      this.deps.log('mcp tools with colliding safe names were left out', { server: name, collisions });
    const byTool = new Map(listed.map((t) => [t.name, t]));
    s.tools = [...table].map(([exposedName, toolName]) => ({
      exposedName,
      server: name,
      tool: byTool.get(toolName)!,
      verdict: verdicts.get(toolName)!,
    }));
    s.byExposed = new Map(s.tools.map((t) => [t.exposedName, t]));
  }

  /** The server's tools the model may be offered: ready, trusted, not drifted. Empty otherwise (never blocks). */
  toolSpecs(name: string): ToolSpec[] {
    const s = this.states.get(name);
    if (!s || s.state !== 'ready') return [];
    return s.tools
      .filter((t) => t.verdict.status === 'trusted')
      .map((t) => ({
        name: t.exposedName,
        description: t.tool.description ?? '',
        parameters: objectSchema(t.tool.inputSchema),
      }));
  }

  /** Every exposed tool of every known server (the Security page's catalogue). */
  allTools(): { name: string; description: string }[] {
    return [...this.states.values()].flatMap((s) =>
      s.tools.map((t) => ({ name: t.exposedName, description: t.tool.description ?? '' })),
    );
  }

  /** Whether a name belongs to a configured server (`mcp__<server>__…`), whatever its state. */
  isServerTool(server: string): boolean {
    return this.states.get(server)?.connection != null || this.deps.repo.get(server) !== null;
  }

  /**
   * Runs one tool call (the gate has already passed it). Reconnects a failed server first. Resolves to the raw
   * result; rejects with a message the model can read (unknown tool, drifted tool, server down, timeout).
   */
  async callTool(
    server: string,
    exposedName: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<{ tool: string; result: unknown }> {
    const connection = await this.open(server);
    const s = this.stateOf(server);
    const entry = s.byExposed.get(exposedName);
    if (!entry)
      throw new McpError(
        `The MCP server "${server}" has no tool ${exposedName}. Its tools: ${s.tools.map((t) => t.exposedName).join(', ') || 'none'}.`,
      );
    if (entry.verdict.status === 'drifted') {
      throw new McpError(
        `The tool ${exposedName} changed since it was trusted and is disabled until the person re-approves it in Settings → MCP.`,
      );
    }
    return { tool: entry.tool.name, result: await connection.callTool(entry.tool.name, args, options) };
  }

  /**
   * What every server connected now lists (docs/mcp.md "Prompts and resources"): nothing is started for it, and a
   * server that fails to list (or takes longer than PROMPTS_LIST_MS) is left out of the answer.
   */
  private async fromConnected<T>(list: (connection: McpConnection, signal: AbortSignal) => Promise<T[]>): Promise<T[]> {
    const open = [...this.states.values()]
      .map((s) => s.connection)
      .filter((c): c is McpConnection => c?.isOpen() === true);
    const signal = AbortSignal.timeout(PROMPTS_LIST_MS);
    const listed = await Promise.all(open.map((c) => list(c, signal).catch(() => [] as T[])));
    return listed.flat();
  }

  prompts(): Promise<McpPrompt[]> {
    return this.fromConnected((c, signal) => c.listPrompts(signal));
  }

  resources(): Promise<McpResource[]> {
    return this.fromConnected((c, signal) => c.listResources(signal));
  }

  /** One resource of a server read, as what goes into the message box; rejects with a sentence. */
  async readResource(server: string, uri: string): Promise<ResourceInsert> {
    const connection = await this.open(server);
    try {
      return await connection.readResource(uri, AbortSignal.timeout(PROMPTS_LIST_MS));
    } catch (error) {
      throw new McpError(`The MCP server "${server}" could not give ${uri}: ${(error as Error).message}`);
    }
  }

  /** One prompt of a server filled in, as text for the message box; rejects with a sentence. */
  async getPrompt(server: string, name: string, args: Record<string, string>): Promise<string> {
    const connection = await this.open(server);
    try {
      return await connection.getPrompt(name, args, AbortSignal.timeout(PROMPTS_LIST_MS));
    } catch (error) {
      throw new McpError(`The MCP server "${server}" could not give the prompt ${name}: ${(error as Error).message}`);
    }
  }

  /** Whether the server has a connection (starting or ready): a changed start (the sandbox switch) restarts it. */
  hasConnection(name: string): boolean {
    const s = this.states.get(name);
    return !!s && (s.connection !== null || s.opening !== null);
  }

  /** Closes a server's connection (its process group dies). The state becomes `stopped`. */
  async stop(name: string): Promise<void> {
    this.queued.delete(name);
    const s = this.stateOf(name);
    const connection = s.connection;
    s.connection = null;
    s.state = 'stopped';
    s.tools = [];
    s.byExposed = new Map();
    await connection?.close();
    this.changed(name);
  }

  async restart(name: string): Promise<void> {
    await this.stop(name);
    await this.open(name).catch(() => undefined);
  }

  /** A server was deleted: stop it and forget its state. */
  async forget(name: string): Promise<void> {
    await this.stop(name);
    this.states.delete(name);
  }

  /** The person re-approved a drifted tool: it is offered again from the next round. */
  approveTool(name: string, tool: string): boolean {
    const ok = this.deps.trust.approve(name, tool);
    const s = this.states.get(name);
    if (ok && s) for (const t of s.tools) if (t.tool.name === tool) t.verdict = { status: 'trusted' };
    this.changed(name);
    return ok;
  }

  /** How the Settings page sees a server: its record, its state and its tools (server-state.ts). */
  view(server: McpServerRecord): McpServerView {
    return serverView(server, this.states.get(server.name), this.startPending, this.deps.repo.hasCredential(server));
  }

  /** The state of one server in one line (list_items, activate_tools replies). */
  summary(name: string): string {
    const server = this.deps.repo.get(name);
    if (!server) return `${name}: not configured`;
    const v = this.view(server);
    const tools = v.tools.filter((t) => t.status === 'trusted').length;
    const drifted = v.tools.length - tools;
    return `${name} (${v.transport}): ${v.state}${v.state === 'ready' ? `, ${tools} tool(s)${drifted ? `, ${drifted} disabled until re-approved` : ''}` : ''}${v.lastError ? ` — ${v.lastError.split('\n')[0]}` : ''}`;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.states.keys()].map((name) => this.stop(name)));
  }
}

/** Providers want an object schema at the top; a server may send none. */
function objectSchema(schema: unknown): Record<string, unknown> {
  const s = schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : {};
  return s.type === 'object'
    ? s
    : { type: 'object', properties: {}, ...s, ...(s.type === undefined ? { type: 'object' } : {}) };
}

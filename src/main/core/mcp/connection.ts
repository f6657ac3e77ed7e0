/**
 * One live connection to one MCP server over the SDK client (docs/mcp.md "Lifecycle", "Calls").
 * - stdio through `GroupStdioTransport` (own process group, scrubbed env + login PATH); HTTP through the SDK's
 *   Streamable HTTP transport, falling back to legacy SSE when the server answers the first POST with 4xx; `sse`
 *   goes straight to legacy SSE. The SDK negotiates the protocol version (newest first, older accepted) and sends
 *   `MCP-Protocol-Version` on HTTP after initialize.
 * - `open()` = initialize + `tools/list` (at most `MAX_LIST_PAGES` pages), bounded by the start timeout; a server
 *   that never answers initialize fails with that said, and its process group is killed.
 * - `callTool` is bounded by the call timeout, paused while the server waits for the person (elicitation); a stop,
 *   a timeout or an abandoned call aborts the SDK request, which sends `notifications/cancelled`.
 * - When the transport closes (the server died), every call in flight fails with the exit reason and the stderr
 *   tail, and `onClosed` tells the manager, which reconnects on the next use.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { startFailureHint } from './start-hint';
import { boundedFetch } from './bounded-fetch';
import type { McpServerRecord } from './server-repository';
import { GroupStdioTransport, type ProcessRecorder, type StdioSandbox } from './stdio-transport';
import {
  listedPrompt,
  listedResource,
  MAX_PROMPTS_PER_SERVER,
  promptText,
  resourceInsert,
  type McpPrompt,
  type McpResource,
  type ResourceInsert,
} from './prompts';
import type { ListedTool } from './tool-trust';

/** The SDK's client side, imported when a server is first connected, not at the app's start (its schemas are big). */
let sdk: ReturnType<typeof importSdk> | null = null;
function importSdk() {
  return Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([client, sse, http, types]) => ({
    ...client,
    ...sse,
    ...http,
    ElicitRequestSchema: types.ElicitRequestSchema,
  }));
}
function loadSdk(): ReturnType<typeof importSdk> {
  if (!sdk) {
    sdk = importSdk();
    sdk.catch(() => (sdk = null));
  }
  return sdk;
}

export const START_TIMEOUT_MS = 120_000;
export const CALL_TIMEOUT_MS = 120_000;
export const MAX_LIST_PAGES = 50;

export interface ElicitationRequest {
  server: string;
  message: string;
  requestedSchema: Record<string, unknown>;
  /** The call the server asks during (the most recent one in flight), when known. */
  call: CallContext | null;
}

export interface CallContext {
  sessionId: number | null;
  toolCallId: string | null;
}

export interface ConnectionDeps {
  server: McpServerRecord;
  credential: string | null;
  /** The environment a stdio server starts from: scrubbed, login PATH; the server's env is added here. */
  baseEnv: () => Promise<Record<string, string>>;
  cwd: string;
  processes?: ProcessRecorder;
  /** A stdio server starts inside the sandbox when given (docs/sandbox.md "MCP servers"). */
  sandbox?: StdioSandbox;
  elicit: (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitResult>;
  onClosed: (reason: string) => void;
  startTimeoutMs?: number;
  callTimeoutMs?: number;
}

export interface CallOptions {
  signal: AbortSignal;
  onProgress?: (progress: { progress: number; total: number | null; message: string | null }) => void;
  context?: CallContext;
}

interface InFlight {
  context: CallContext;
  pause(): void;
  resume(): void;
}

export class McpConnection {
  private client: Client | null = null;
  private transport: Transport | null = null;
  private closedReason: string | null = null;
  private readonly inFlight = new Set<InFlight>();

  constructor(private readonly deps: ConnectionDeps) {}

  get name(): string {
    return this.deps.server.name;
  }

  stderrTail(): string {
    return this.transport instanceof GroupStdioTransport ? this.transport.stderrTail() : '';
  }

  exitReason(): string | null {
    return this.transport instanceof GroupStdioTransport ? this.transport.exitReason() : this.closedReason;
  }

  isOpen(): boolean {
    return this.client !== null && this.closedReason === null;
  }

  /** Connects and lists the tools. Rejects with a message for the person (and the model) to read. */
  async open(): Promise<ListedTool[]> {
    const timeout = this.deps.startTimeoutMs ?? START_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeout);
    try {
      await this.connect(timeout, deadline);
      const tools: ListedTool[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const listed = await this.client!.listTools(cursor ? { cursor } : undefined, { signal: deadline, timeout });
        tools.push(
          ...listed.tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema })),
        );
        cursor = listed.nextCursor;
        if (!cursor) break;
      }
      return tools;
    } catch (error) {
      const why = deadline.aborted ? `did not answer within ${Math.round(timeout / 1000)} s` : (error as Error).message;
      await this.close();
      throw new Error(this.describeFailure(`could not start: ${why}`));
    }
  }

  private async connect(timeout: number, signal: AbortSignal): Promise<void> {
    const { server } = this.deps;
    const { SSEClientTransport, StreamableHTTPClientTransport, StreamableHTTPError } = await loadSdk();
    if (server.transport === 'stdio') {
      await this.connectWith(await this.stdioTransport(), timeout, signal);
      return;
    }
    const url = new URL(server.url!);
    // The same bound on one message as over stdio (bounded-fetch.ts): the SDK reads HTTP answers without one.
    const options = { requestInit: { headers: this.headers() } satisfies RequestInit, fetch: boundedFetch() };
    if (server.transport === 'sse') {
      await this.connectWith(new SSEClientTransport(url, options), timeout, signal);
      return;
    }
    try {
      await this.connectWith(new StreamableHTTPClientTransport(url, options), timeout, signal);
    } catch (error) {
      // Legacy servers (HTTP+SSE, protocol 2024-11-05) answer the Streamable HTTP POST with 4xx: try SSE.
      const code = error instanceof StreamableHTTPError ? error.code : undefined;
      if (code === undefined || code < 400 || code >= 500 || signal.aborted) throw error;
      await this.connectWith(new SSEClientTransport(url, options), timeout, signal);
    }
  }

  private async connectWith(transport: Transport, timeout: number, signal: AbortSignal): Promise<void> {
    const { Client, ElicitRequestSchema } = await loadSdk();
    const client = new Client(
      { name: 'skald-desktop', version: '0.1.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const params = request.params as { message: string; requestedSchema?: Record<string, unknown>; mode?: string };
      if (params.mode === 'url') return { action: 'decline' };
      const calls = [...this.inFlight];
      calls.forEach((c) => c.pause()); // the call's clock stops while the person answers
      try {
        return await this.deps.elicit(
          {
            server: this.name,
            message: params.message,
            requestedSchema: params.requestedSchema ?? {},
            call: calls.at(-1)?.context ?? null,
          },
          extra.signal,
        );
      } finally {
        calls.forEach((c) => c.resume());
      }
    });
    // Closed while the SDK or the environment loaded (a server saved then stopped at once, the app quitting during
    // its start): spawning now would leave a process nothing owns.
    if (this.closedReason !== null) throw new Error(`was stopped while it started (${this.closedReason})`);
    this.transport = transport;
    transport.onclose = undefined;
    client.onclose = () => this.handleClosed();
    await client.connect(transport, { timeout, signal });
    this.client = client;
  }

  private async stdioTransport(): Promise<GroupStdioTransport> {
    const { server, credential } = this.deps;
    const env = { ...(await this.deps.baseEnv()), ...server.env };
    if (server.secretTarget?.kind === 'env' && credential) env[server.secretTarget.name] = credential;
    return new GroupStdioTransport({
      command: server.command!,
      args: server.args,
      env,
      cwd: this.deps.cwd,
      processes: this.deps.processes,
      sandbox: this.deps.sandbox,
    });
  }

  private headers(): Record<string, string> {
    const { server, credential } = this.deps;
    const headers = { ...server.headers };
    if (server.secretTarget?.kind === 'header' && credential)
      headers[server.secretTarget.name] = `${server.secretTarget.prefix ?? ''}${credential}`;
    return headers;
  }

  private handleClosed(): void {
    if (this.closedReason !== null) return;
    this.closedReason = this.exitReason() ?? 'the connection closed';
    this.deps.onClosed(this.describeFailure(`stopped: ${this.closedReason}`));
  }

  /**
   * "server X stopped: exited with code 1. Last stderr: …", after a sentence saying what to do when the cause is plain
   * (an npx/uvx package that could not be downloaded, a runner not installed: start-hint.ts).
   */
  describeFailure(what: string): string {
    const stderr = this.stderrTail();
    const tail = stderr.trim().split('\n').slice(-5).join('\n');
    const { command, args } = this.deps.server;
    const hint = command ? startFailureHint(command, args, `${what}\n${stderr}`) : null;
    return `${hint ? `${hint}\n` : ''}MCP server "${this.name}" ${what}${tail ? `\nLast lines of its stderr:\n${tail}` : ''}`;
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const client = this.client;
    if (!client || this.closedReason !== null) throw new Error(this.describeFailure('is not connected'));
    const limitMs = this.deps.callTimeoutMs ?? CALL_TIMEOUT_MS;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | null = null;
    let timedOut = false;
    const arm = () => {
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort(`timed out after ${Math.round(limitMs / 1000)} s`);
      }, limitMs);
    };
    const entry: InFlight = {
      context: options.context ?? { sessionId: null, toolCallId: null },
      pause: () => timer && clearTimeout(timer),
      resume: () => {
        if (timer) clearTimeout(timer);
        arm();
      },
    };
    const onAbort = () => controller.abort('stopped by the user');
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
    this.inFlight.add(entry);
    arm();
    try {
      return await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: controller.signal,
        // Our own timer bounds the call (it pauses during elicitation); the SDK's must not fire first.
        timeout: 24 * 60 * 60 * 1000,
        onprogress: options.onProgress
          ? (p) =>
              options.onProgress!({
                progress: p.progress,
                total: p.total ?? null,
                message: (p as { message?: string }).message ?? null,
              })
          : undefined,
      });
    } catch (error) {
      if (timedOut)
        throw new Error(
          `The MCP tool ${tool} on "${this.name}" did not finish within ${Math.round(limitMs / 1000)} s and was cancelled.`,
        );
      if (options.signal.aborted) throw error;
      if (this.closedReason !== null)
        throw new Error(
          this.describeFailure(
            `stopped while ${tool} ran (${this.closedReason}); the call failed. The next call starts it again`,
          ),
        );
      throw error;
    } finally {
      if (timer) clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      this.inFlight.delete(entry);
    }
  }

  /**
   * Every page of one of the server's lists (`prompts/list`, `resources/list`), up to MAX_PROMPTS_PER_SERVER
   * entries and MAX_LIST_PAGES pages; none when the server does not offer that capability.
   */
  private async listPages<T>(
    capability: 'prompts' | 'resources',
    page: (
      client: Client,
      cursor: string | undefined,
      options: { signal: AbortSignal; timeout: number },
    ) => Promise<{ items: T[]; nextCursor?: string }>,
    signal: AbortSignal,
  ): Promise<T[]> {
    const client = this.client;
    if (!client || !client.getServerCapabilities()?.[capability]) return [];
    const timeout = this.deps.callTimeoutMs ?? CALL_TIMEOUT_MS;
    const items: T[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < MAX_LIST_PAGES && items.length < MAX_PROMPTS_PER_SERVER; n++) {
      const listed = await page(client, cursor, { signal, timeout });
      items.push(...listed.items);
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return items.slice(0, MAX_PROMPTS_PER_SERVER);
  }

  /** The server's prompts (docs/mcp.md "Prompts and resources"). */
  listPrompts(signal: AbortSignal): Promise<McpPrompt[]> {
    return this.listPages(
      'prompts',
      async (client, cursor, options) => {
        const listed = await client.listPrompts(cursor ? { cursor } : undefined, options);
        return { items: listed.prompts.map((p) => listedPrompt(this.name, p)), nextCursor: listed.nextCursor };
      },
      signal,
    );
  }

  /** The server's resources (docs/mcp.md "Prompts and resources"). */
  listResources(signal: AbortSignal): Promise<McpResource[]> {
    return this.listPages(
      'resources',
      async (client, cursor, options) => {
        const listed = await client.listResources(cursor ? { cursor } : undefined, options);
        return { items: listed.resources.map((r) => listedResource(this.name, r)), nextCursor: listed.nextCursor };
      },
      signal,
    );
  }

  /** One prompt filled in with `args` (`prompts/get`), as the text that goes into the message box. */
  async getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<string> {
    if (!this.client) throw new Error(this.describeFailure('is not connected'));
    const got = await this.client.getPrompt(
      { name, arguments: args },
      { signal, timeout: this.deps.callTimeoutMs ?? CALL_TIMEOUT_MS },
    );
    return promptText(got.messages);
  }

  /** One resource read (`resources/read`), as what goes into the message box. */
  async readResource(uri: string, signal: AbortSignal): Promise<ResourceInsert> {
    if (!this.client) throw new Error(this.describeFailure('is not connected'));
    const read = await this.client.readResource(
      { uri },
      { signal, timeout: this.deps.callTimeoutMs ?? CALL_TIMEOUT_MS },
    );
    return resourceInsert(uri, read.contents as { uri: string; mimeType?: string; text?: string; blob?: string }[]);
  }

  /** Ends the connection; a stdio server's whole process group is killed. Idempotent. */
  async close(): Promise<void> {
    this.closedReason ??= 'stopped by the app';
    const client = this.client;
    const transport = this.transport;
    this.client = null;
    try {
      if (client) await client.close();
      else await transport?.close();
    } catch {
      // a transport that is already down
    }
    if (transport instanceof GroupStdioTransport) await transport.close();
  }
}

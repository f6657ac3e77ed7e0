/**
 * A stdio transport for the MCP SDK client that owns its child the way the app needs (docs/mcp.md "Lifecycle").
 * The SDK's `StdioClientTransport` spawns the server in the app's process group and kills only the direct child;
 * a server started through `npx` or a shell wrapper leaves its real process behind. Here the server:
 * - is spawned detached, so it leads its own process group, and `close()` kills the whole group (SIGTERM, grace,
 *   SIGKILL);
 * - gets the scrubbed environment of shell commands (provider keys, credential-looking names and stored secret
 *   values removed) with the login shell's PATH, plus the server's own env on top;
 * - is recorded (pid + kernel start time) so a crashed run's servers are swept at the next start;
 * - keeps the last `STDERR_TAIL` bytes of stderr and its exit reason, for the state the UI shows;
 * - with `sandbox`, starts inside the OS sandbox (docs/sandbox.md "MCP servers"): the launch says how (bubblewrap or
 *   sandbox-exec around the command, the seccomp filter on fd 3), or why it cannot, and then the start fails with
 *   that reason; npm's cache moves to the sandbox's private temp folder, as the home folder is read-only there.
 * Messages are newline-delimited JSON-RPC: read by `MessageFramer` (stdio-framing.ts), written with the SDK's
 * `serializeMessage`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Launch } from '../sandbox/index';
import { killProcessGroup } from '../tools/shell/process-group';
import { MessageFramer } from './stdio-framing';

export const STDERR_TAIL = 8 * 1024;

export interface ProcessRecorder {
  record(pid: number, command: string): void;
  forget(pid: number): void;
}

/** How a server's command line starts in the sandbox (the sandbox's launch for it, network and folders decided). */
export type StdioSandbox = (argv: readonly string[]) => Promise<Launch>;

export interface StdioServerSpawn {
  command: string;
  args: string[];
  /** The complete environment (already scrubbed and merged by the caller). */
  env: Record<string, string>;
  cwd: string;
  processes?: ProcessRecorder;
  /** Start it inside the sandbox (absent: as it is). */
  sandbox?: StdioSandbox;
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | null = null;
  /** The SDK's framing, imported by `start()` (not at the app's start: the SDK's message schemas come with it). */
  private framing: { buffer: MessageFramer; serialize: (message: JSONRPCMessage) => string } | null = null;
  private stderr = '';
  private exit: string | null = null;
  private closing = false;
  private forgotten = false;
  private closed: Promise<void> = Promise.resolve();

  constructor(private readonly spec: StdioServerSpawn) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  stderrTail(): string {
    return this.stderr;
  }

  /** Why the process ended ("exited with code 1", "killed by SIGKILL"), or null while it runs. */
  exitReason(): string | null {
    return this.exit;
  }

  async start(): Promise<void> {
    if (this.child || this.framing) throw new Error('GroupStdioTransport already started');
    const [{ serializeMessage }, { JSONRPCMessageSchema }] = await Promise.all([
      import('@modelcontextprotocol/sdk/shared/stdio.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    if (this.framing) throw new Error('GroupStdioTransport already started');
    // Closed while the SDK loaded (a server stopped as it started): a process spawned now would belong to no one.
    if (this.closing) throw new Error('the server was stopped before it started');
    this.framing = {
      buffer: new MessageFramer((value) => JSONRPCMessageSchema.parse(value)),
      serialize: serializeMessage,
    };
    const buffer = this.framing.buffer;
    const launch = this.spec.sandbox ? await this.spec.sandbox([this.spec.command, ...this.spec.args]) : null;
    if (launch?.kind === 'refused') {
      this.exit ??= launch.reason;
      throw new Error(launch.reason);
    }
    if (this.closing) throw new Error('the server was stopped before it started');
    const confined = launch?.kind === 'confined' ? launch : null;
    const [file, ...args] = confined ? [confined.file, ...confined.args] : [this.spec.command, ...this.spec.args];
    const env = confined
      ? { ...this.spec.env, ...confined.env, npm_config_cache: `${confined.env.TMPDIR ?? '/tmp'}/npm-cache` }
      : this.spec.env;
    return new Promise((resolve, reject) => {
      const child = spawn(file!, args, {
        cwd: this.spec.cwd,
        env,
        detached: true,
        // fd 3 on: what the sandbox reads at its start (bubblewrap's seccomp filter).
        stdio: ['pipe', 'pipe', 'pipe', ...(confined?.fds ?? [])],
        windowsHide: true,
      });
      confined?.release(); // the child has its own copies
      this.child = child;
      this.closed = new Promise((resolve) => child.once('close', () => resolve()));
      child.once('error', (error) => {
        this.exit ??= `could not start: ${error.message}`;
        reject(error);
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid) this.spec.processes?.record(child.pid, [this.spec.command, ...this.spec.args].join(' '));
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exit ??= signal ? `killed by ${signal}` : `exited with code ${code}`;
      });
      child.once('close', () => {
        this.forget();
        // The group may outlive its leader (a wrapper that exited while its server runs on): end it too.
        if (child.pid) void killProcessGroup(child.pid, 500);
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        // A message that cannot be read (not JSON, too large, too deep) is reported; one that answers a call fails
        // that call at once (stdio-framing.ts).
        buffer.push(
          chunk,
          (message) => this.onmessage?.(message),
          (error) => this.onerror?.(error),
        );
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
      });
    });
  }

  /** Drops the process record once (the group is gone, or going: the sweep at next start must not touch it). */
  private forget(): void {
    const pid = this.child?.pid;
    if (!pid || this.forgotten) return;
    this.forgotten = true;
    try {
      this.spec.processes?.forget(pid);
    } catch {
      // The database closed first (shutdown): the record is swept at the next start, where the pid is dead.
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed || this.exit || !this.framing)
        return reject(new Error('the server is not running'));
      if (stdin.write(this.framing.serialize(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** Kills the server's whole process group and waits until it is gone (bounded). Idempotent. */
  async close(): Promise<void> {
    const child = this.child;
    if (this.closing) return;
    this.closing = true;
    this.exit ??= 'stopped by the app';
    if (!child) return; // not spawned yet: `start` now refuses to
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (child.pid) await killProcessGroup(child.pid, 1_000);
    this.forget();
    // Its pipes close after the group is gone: wait (bounded) so nothing of it is left when we return.
    await Promise.race([this.closed, new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    this.framing?.buffer.clear();
  }
}

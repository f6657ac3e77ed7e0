/**
 * `execute_cmd`: runs one shell command with bash (`bash --noprofile --norc -c`) in `workdir` (default: the working
 * directory) with a timeout of 1–600 s (default 120). Always approval-gated by the rules (not here).
 * - bash, never `/bin/sh`: the gate parses commands with the bash grammar, and the shell that runs must be the
 *   shell that was parsed (docs/shell-analysis.md "The shell that runs"); dash reads `$'…'`, here-documents and
 *   other syntax differently, which let a hidden command run under an allowed one.
 * - Bad input is a readable tool error, never a hang: a NUL in the command or a command over MAX_COMMAND_BYTES (the
 *   kernel refuses one argument over 128 KiB) fail the arguments' check, before the gate reads them; any other
 *   failure to start the process fails the run.
 * - Audit: every command is logged (`execute_cmd: running shell command`, command/workdir/timeout_secs) before it
 *   starts, so an auto-approved command is still traceable.
 * - The child's environment is scrubbed of provider keys and secrets (`env-scrub.ts`); stdin is closed.
 * - stdout and stderr are interleaved as they arrive; at most MAX_OUTPUT_BYTES are kept, the rest is counted and
 *   the cut is stated. Terminal escape sequences are taken out and carriage returns overwrite (`terminal-text.ts`).
 * - Spawned detached (own process group); stop and timeout kill the whole group, SIGTERM then SIGKILL (X8).
 * - Confined by the OS sandbox (docs/sandbox.md) unless the call's decision says otherwise (`ctx.sandbox`; none =
 *   sandboxed without network): writes only in the working directory and a private /tmp, the data folder, `secrets`
 *   and credential stores hidden, no network. Where the sandbox cannot start the call fails with why and how to fix
 *   it, never runs unconfined instead; on Windows (no sandbox) it runs and its result says so. What the sandbox
 *   stopped is added to the result in a sentence (sandbox/explain.ts). The process recorded and killed is
 *   bubblewrap's, the leader of the group that holds the command.
 * Outcomes: the command ran → `completed`, with its exit code in the text (a non-zero exit is information for the
 * model, not a tool failure); timeout → `failed` with the output so far; stop → `cancelled`.
 * Limits: background children of a command that exits normally keep running (in the sandbox too, until stop or
 * timeout ends the sandbox's whole process namespace).
 * Check ids (R4, X8, X10) are listed in docs/security-checks.md.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { kindAt, realDirectory } from '../_policy/fs';
import { resolvePath } from '../_policy/paths';
import type { Tool } from '../tool';
import { label } from '../fs/common';
import { scrubEnv } from './env-scrub';
import { killProcessGroup } from './process-group';
import { terminalText } from './terminal-text';
import { findBash } from './bash';
import { type CommandSandbox, SANDBOXED_NO_NETWORK } from '../sandbox-port';

let execaModule: Promise<typeof import('execa')> | null = null;
/**
 * execa, imported by the first command or by the app's background warm-up after it serves, not at its start
 * (docs/performance.md "Performance targets"). A failed import is retried by the next command.
 */
export function loadExeca(): Promise<typeof import('execa')> {
  if (!execaModule) {
    execaModule = import('execa');
    execaModule.catch(() => (execaModule = null));
  }
  return execaModule;
}

export const MAX_OUTPUT_BYTES = 100 * 1024;
export const DEFAULT_TIMEOUT_SECS = 120;
export const MAX_TIMEOUT_SECS = 600;
/** Linux refuses a single argument of 128 KiB or more (MAX_ARG_STRLEN, counting its NUL) with E2BIG. */
export const MAX_COMMAND_BYTES = 128 * 1024 - 1;
/** After the shell exits, how long to wait for pipes still held by its background children. */
const DRAIN_MS = 250;

export interface ExecuteCmdDeps {
  /** Values of the user's stored secrets: never passed to a child (docs/plugins.md "Secrets"). */
  secretValues?: () => readonly string[];
  /** The environment to start from (default `process.env`); tests pass their own. */
  baseEnv?: () => NodeJS.ProcessEnv;
  /** The bash binary (default: the first of BASH_CANDIDATES that exists). */
  shell?: string;
  /** Records running commands (pid + start time) so a crashed run's leftovers are ended at the next start (R4). */
  processes?: { record(pid: number, command: string): void; forget(pid: number): void };
  /**
   * The sandbox commands run in (docs/sandbox.md): the composition root passes sandbox/'s, which hides the credential
   * stores the guards know. Without one (a registry built only to read the tools' traits), a call fails and no
   * command runs: nothing runs unconfined for want of a sandbox.
   */
  sandbox?: CommandSandbox;
}

/**
 * NUL cannot be passed to a process at all, and one argument has a kernel limit: why this command cannot run, or null.
 * Checked by the schema, so a call with such a command fails its normalization and the gate never reads it: the
 * grammar's reading of an 8 MB command held the gate's thread 2.6 s and took the process past 1.7 GB
 * (docs/shell-analysis.md "Bad input").
 */
function commandTextProblem(command: string): string | null {
  const nul = command.indexOf('\0');
  if (nul !== -1)
    return `The command contains a NUL character (at position ${nul}); a command line cannot carry NUL bytes. Remove it.`;
  const bytes = Buffer.byteLength(command);
  if (bytes <= MAX_COMMAND_BYTES) return null;
  return (
    `The command is ${bytes} bytes; one command line can be at most ${MAX_COMMAND_BYTES} bytes (the system's limit for one argument). ` +
    'Write long content to a file with write_file and run a short command that uses the file.'
  );
}

const input = z.object({
  command: z
    .string()
    .min(1)
    .superRefine((command, ctx) => {
      const problem = commandTextProblem(command);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .describe('The shell command line to run (bash syntax).'),
  workdir: z.string().min(1).optional().describe('Absolute folder to run in (default: the working directory).'),
  timeout: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_TIMEOUT_SECS)
    .default(DEFAULT_TIMEOUT_SECS)
    .describe(`Seconds before the command is killed (1–${MAX_TIMEOUT_SECS}, default ${DEFAULT_TIMEOUT_SECS}).`),
});

class OutputBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  total = 0;
  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (this.kept >= MAX_OUTPUT_BYTES) return;
    const part = chunk.subarray(0, MAX_OUTPUT_BYTES - this.kept);
    this.chunks.push(part);
    this.kept += part.length;
  }
  text(): string {
    // A cut inside a multi-byte character decodes to U+FFFD at the end: drop it.
    const text = Buffer.concat(this.chunks).toString('utf8');
    return this.total > this.kept ? text.replace(/\uFFFD+$/, '') : text;
  }
  note(): string | null {
    if (this.total <= this.kept) return null;
    return `[output cut at ${MAX_OUTPUT_BYTES / 1024} KB of ${this.total} bytes; redirect it to a file and use read_file or grep_files to see the rest]`;
  }
}

function firstWord(command: string): string {
  const words = command.trim().split(/\s+/);
  // Skip leading `VAR=value` assignments: the program is what identifies the command.
  return words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? words[0] ?? command;
}

/** What the model is told of the sandbox (docs/sandbox.md); Windows has none. */
const SANDBOX_NOTE =
  process.platform === 'win32'
    ? ''
    : 'It runs in a sandbox: it can write only in the working directory and /tmp (its own, empty), has no network, ' +
      "and cannot see the app's data, secrets/ folders or credential stores; the result says when the sandbox stopped it. ";

export function createExecuteCmdTool(deps: ExecuteCmdDeps = {}): Tool {
  const sandbox = deps.sandbox;
  return defineTool({
    name: TN.EXECUTE_CMD,
    description:
      'Run a shell command (bash) and return its combined stdout/stderr and exit code. Output over 100 KB is cut. ' +
      SANDBOX_NOTE +
      `Default timeout ${DEFAULT_TIMEOUT_SECS} s (max ${MAX_TIMEOUT_SECS}). Prefer the dedicated tools: read_file (not cat), ` +
      'list_files (not ls/find), grep_files (not grep/rg), edit_file (not sed/awk), write_file (not echo >).',
    input,
    kind: 'execute',
    category: 'shell',
    // The gate reads it with the shell grammar; the card shows it as a command line with its output.
    commandKey: 'command',
    aliases: { cmd: 'command', cwd: 'workdir', timeout_secs: 'timeout' },
    // A path: made absolute against the working directory, and refused when longer than the system takes.
    pathKeys: ['workdir'],
    // The folder it runs in is part of what is decided, shown and hashed: a missing one is the working directory.
    effective: (a, workingDir) => ({ ...a, workdir: resolvePath(a.workdir ?? workingDir, workingDir) }),
    // The approval card shows the whole command line, as it will run, and that it runs in the sandbox (whose probe
    // starts now, if it has not, so that the card's line knows whether it can start).
    preview: (a, ctx) => {
      sandbox?.statusNow();
      return { kind: 'command', text: `$ ${a.command}`, sandboxedIn: ctx.workingDir };
    },
    describe: (a, length) => label(TN.EXECUTE_CMD, length === 'short' ? firstWord(a.command) : a.command, length),
    async executeAsync(a, ctx, signal) {
      const bash = deps.shell ?? findBash();
      if (!bash)
        throw new ToolError(
          'bash was not found on this machine; execute_cmd runs commands with bash (the shell the approval gate checks them against).',
        );
      const requested = a.workdir ? resolvePath(a.workdir, ctx.workingDir) : ctx.workingDir;
      const cwd = realDirectory(requested);
      if (!cwd) throw new ToolError(`workdir ${requested} does not exist or is not a folder.`);
      ctx.log('execute_cmd: running shell command', { command: a.command, workdir: cwd, timeout_secs: a.timeout });
      signal.throwIfAborted();

      const env = scrubEnv(deps.baseEnv?.() ?? process.env, deps.secretValues?.() ?? []);
      const argv = [bash, '--noprofile', '--norc', '-c', a.command];
      // The sandbox starts the shell inside, where a missing one would be bubblewrap's error: say it as a spawn would.
      if (kindAt(bash) !== 'file') throw new ToolError(`The command could not start: ENOENT (${bash} does not exist).`);
      if (!sandbox) throw new ToolError('execute_cmd was built without a sandbox here, so it runs no command.');
      const launch = await sandbox.launch(
        ctx.sandbox ?? SANDBOXED_NO_NETWORK,
        { workingDir: ctx.workingDir, workspaceDir: ctx.workspaceDir, dataDirs: ctx.protectedRoots ?? [] },
        cwd,
        argv,
      );
      if (launch.kind === 'refused') throw new ToolError(launch.reason);
      const [file, ...args] = launch.kind === 'confined' ? [launch.file, ...launch.args] : argv;
      const release = () => launch.kind === 'confined' && launch.release();
      const { execa } = await loadExeca().catch((error: unknown) => (release(), Promise.reject(error)));
      if (signal.aborted) release();
      signal.throwIfAborted();
      const child = execa(file!, args, {
        cwd,
        env: launch.kind === 'confined' ? { ...env, ...launch.env } : env,
        extendEnv: false,
        detached: true,
        cleanup: false,
        // fd 3 on: what the sandbox reads at its start (bubblewrap's seccomp filter). execa's types leave a descriptor
        // number out of stdio[3+], which its runtime passes to Node's spawn as it is.
        stdio: ['ignore', 'pipe', 'pipe', ...((launch.kind === 'confined' ? launch.fds : []) as unknown as 'ignore'[])],
        buffer: false,
        all: true,
        reject: false,
        stripFinalNewline: false,
      });
      release(); // the child has its own copies of the descriptors
      // With `reject: false` the promise settles with a result even when the process never started (E2BIG,
      // ENOMEM, EACCES): then no 'exit' event comes, so it is raced with the events below.
      const settled = child.then(
        (r) => ({
          code: r.exitCode ?? null,
          signal: (r.signal ?? null) as NodeJS.Signals | null,
          error: r.exitCode === undefined && r.signal === undefined && r.failed ? asError(r.cause) : undefined,
        }),
        (error: unknown) => ({ code: null, signal: null, error: asError(error) }),
      );
      if (child.pid) deps.processes?.record(child.pid, a.command);
      const output = new OutputBuffer();
      const drained = new Promise<void>((resolve) => {
        if (!child.all) return resolve();
        child.all.on('data', (chunk: Buffer) => output.push(chunk));
        child.all.on('end', () => resolve());
        child.all.on('error', () => resolve());
      });
      const exited = Promise.race([
        new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
          child.once('exit', (code, sig) => resolve({ code, signal: sig }));
          child.once('error', (error) => resolve({ code: null, signal: null, error }));
        }),
        settled,
      ]);

      // An object, not a `let`: it is set from callbacks, which control-flow narrowing does not see.
      const ended: { reason: 'timeout' | 'stop' | null } = { reason: null };
      const kill = (why: 'timeout' | 'stop') => {
        if (ended.reason) return;
        ended.reason = why;
        if (child.pid) void killProcessGroup(child.pid);
      };
      const timer = setTimeout(() => kill('timeout'), a.timeout * 1000);
      const onAbort = () => kill('stop');
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const exit = await exited;
        await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, DRAIN_MS))]);
        const reason = ended.reason;
        if (reason && child.pid) await killProcessGroup(child.pid, 0); // make sure the group is gone before reporting
        if (child.pid) deps.processes?.forget(child.pid);
        if (exit.error && exit.code === null && !reason)
          throw new ToolError(`The command could not start: ${startError(exit.error)}`);
        const body = terminalText(output.text());
        const parts = [body === '' ? '(no output)' : body.replace(/\n$/, '')];
        const note = output.note();
        if (note) parts.push(note);
        if (reason === 'stop')
          return { kind: 'cancelled', note: 'Stopped by the user; the command and its children were killed.' };
        if (reason === 'timeout')
          return {
            kind: 'failed',
            error: `${parts.join('\n')}\n[timed out after ${a.timeout} s; the command and its children were killed]`,
          };
        parts.push(exit.signal ? `[killed by signal ${exit.signal}]` : `[exit code ${exit.code ?? 'unknown'}]`);
        if (launch.kind === 'confined') {
          // bubblewrap's own failure to set up (before the command ran) is its first line, exit code 1.
          if (exit.code === 1 && /^bwrap: /.test(body))
            throw new ToolError(`The sandbox could not start this command: ${body.split('\n')[0]!.slice(7, 400)}`);
          for (const sentence of launch.explain(body)) parts.push(`[${sentence}]`);
        } else if (launch.note) parts.push(`[not sandboxed: ${launch.note}]`);
        return parts.join('\n');
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      }
    },
  });
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/** The OS reason, short: execa's message repeats the whole command line, which may be 128 KiB long. */
function startError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'E2BIG') return 'the command line and environment are too large for the system (E2BIG).';
  const message = error.message.split('\n')[0] ?? '';
  return code ? `${code}${message.length <= 200 ? ` (${message})` : ''}` : message.slice(0, 200);
}

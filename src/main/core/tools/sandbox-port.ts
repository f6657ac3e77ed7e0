/**
 * What a tool needs of the OS sandbox (docs/sandbox.md), declared here beside the tools so that tools/ stays a leaf
 * (docs/architecture.md "Layers inside the core"): the decision a call runs under, the folders it is scoped to, how
 * one call starts, and the port `execute_cmd` launches through. `sandbox/` implements the port (its `Sandbox`) and the
 * composition root hands it to the tool.
 */
import type { SandboxDecisionDto } from '../../../shared/contract/sandbox';

/**
 * How one call runs (docs/sandbox.md "The decision"): confined by the sandbox, with or without network, or outside it.
 * The gate's decision (an allow rule's network grant, the person's choice on a card; never a bypass) carries it to the
 * run; a run that is given none is sandboxed without network. Running unconfined is its own decision, never a
 * fallback: a bypass does not lift the sandbox, and a sandbox that cannot start fails the call instead of running it
 * with the person's full rights.
 */
export type SandboxDecision = SandboxDecisionDto;

/** What a run gets when nothing decided otherwise: writes only in the working folder, no network. */
export const SANDBOXED_NO_NETWORK: SandboxDecision = Object.freeze({ mode: 'sandboxed', network: false });

/** What one session's plan depends on: the folders of the session. */
export interface SandboxScope {
  /** The session's working directory: the one folder commands may write. */
  workingDir: string;
  /** The workspace: its `secrets` folders are hidden too; readable even inside a hidden data folder. */
  workspaceDir: string;
  /** The app's data folders: hidden whole. */
  dataDirs: readonly string[];
}

/** How to start one call. */
export type Launch =
  | {
      kind: 'confined';
      file: string;
      /** The arguments, the call's own program and arguments at the end. */
      args: string[];
      /** Descriptors given to the process as fds 3, 4, … (bubblewrap's seccomp filter). */
      fds: number[];
      /** Closes `fds`: call it once the process is spawned (or will not be). */
      release(): void;
      /** Variables to set on top of the call's environment. */
      env: Record<string, string>;
      /** The sentences for what the sandbox stopped, read from the command's output (explain.ts). */
      explain(output: string): string[];
    }
  /** Run as it is: the decision says so (note null), or the platform has no sandbox (the note says so). */
  | { kind: 'unconfined'; note: string | null }
  | { kind: 'refused'; reason: string };

/** The sandbox as a command tool uses it (sandbox/sandbox.ts's `Sandbox` is the one implementation). */
export interface CommandSandbox {
  /** Starts the probe if it has not started (a card's line then knows whether the sandbox can start); no waiting. */
  statusNow(): unknown;
  /** How to start `argv` in `cwd` under `decision` for a session of `scope`. */
  launch(decision: SandboxDecision, scope: SandboxScope, cwd: string, argv: readonly string[]): Promise<Launch>;
}

/**
 * The tool definition and the live execution handle (docs/architecture.md "Tools").
 * A `Tool` is a catalogue entry; `run()` starts one `ToolExecution` that owns its state and its stop.
 * An execution never touches the database or the bridge: the session driver mirrors its state.
 * Built-in tools are made with `defineTool` (define-tool.ts): sync ones give `execute`, async ones
 * `executeAsync`; the default `run()` is a `SimpleExecution` (execution.ts).
 * Error convention: bad arguments, refused or missing paths, non-unique edits → the execution completes as
 * `failed` with a message written for the model; nothing on disk changes. A tool never throws out of `run`/`wait`.
 * Check ids (C1) are listed in docs/security-checks.md.
 */
import type { z } from 'zod';
import type { NewChatImage } from '../../../shared/chat-images';
import type { LabelLength } from '../../../shared/labels';
import type { ToolStatus } from '../../../shared/tool-call';
import type { ToolCategory } from '../../../shared/tool-names';
import type { ToolKind, ToolTraits } from '../../../shared/tool-traits';
import type { SandboxDecision } from './sandbox-port';

export type ToolExecutionState =
  | 'pending'
  | 'awaiting_approval'
  | 'running'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'rejected';

/** A tool row's state (docs/architecture.md "Crash and resume"): `queued` until the call reaches the gate. */
export type ToolDbStatus = ToolStatus;

export type ResultType = 'string' | 'json';

/** The three terminal outcomes `wait()` can return; approval-phase states belong to the session driver. */
export type ExecutionOutcome =
  /** `images`: what the tool returns for the model to see besides its text (read_file on an image file). */
  | { kind: 'completed'; result: string; resultType?: ResultType; images?: readonly NewChatImage[] }
  | { kind: 'failed'; error: string }
  | { kind: 'cancelled'; note?: string };

export interface ToolExecution {
  state(): ToolExecutionState;
  wait(): Promise<ExecutionOutcome>;
  /** Default: abort the work's signal. Bespoke executions may also tear down remote work. Idempotent. */
  stop(): Promise<void>;
}

/** What a tool may use while it runs. Effects come through here, never through ambient globals. */
export interface ToolRunContext {
  /** The session's working directory; relative paths resolve against it. */
  workingDir: string;
  /** The workspace root (the agent's project folder). */
  workspaceDir: string;
  /** Aborted by `stop()` or the turn's cancel signal. */
  signal: AbortSignal;
  log: (message: string, fields?: Record<string, unknown>) => void;
  /**
   * Folders no tool may write into (the app's data dir: database, settings, rules — docs/approval.md "Hard guards",
   * check C1). When the workspace itself sits inside one of them (the default `workspace/` under the data dir), the
   * workspace stays writable and the rest of the root does not.
   */
  protectedRoots?: readonly string[];
  /**
   * The app's default workspace when the session works in another folder: its secrets/ stay guarded (a hard link to
   * one is refused on open; docs/approval.md "Relative means the working directory").
   */
  defaultWorkspaceDir?: string;
  /** Which call this is (progress and elicitation cards attach to it); absent outside a session. */
  call?: { sessionId: number; toolCallId: string };
  /** For walks: what the rules and guards protect for this call; absent = only the built-in skips. */
  protectedPaths?: ProtectedPaths;
  /**
   * How a command of this call runs (docs/sandbox.md "The decision"): given by the approval; absent = sandboxed
   * without network.
   */
  sandbox?: SandboxDecision;
}

/**
 * What a walk must leave out for one call (docs/approval.md "Walks skip what is protected"), given by the gate:
 * `excludes(realPath)` for an entry (a folder is then not entered), `describeUnder(root)` the protected places
 * under a walk root, in words, for the result's note.
 */
export interface ProtectedPaths {
  excludes(realPath: string): boolean;
  describeUnder(root: string): string[];
}

/**
 * Where the secret strings of one call's arguments are, as paths of keys (docs/plugins.md "Secret arguments"): a tool
 * declares them, secrets/sealed-args.ts seals and opens what sits there.
 */
export type SecretPaths = (args: Record<string, unknown>) => readonly (readonly string[])[];

/** Raw model arguments: parsed by the tool's zod schema before use. */
export type ToolArgs = Record<string, unknown>;

export type { CardDisplay, ToolKind, ToolTraits } from '../../../shared/tool-traits';

/**
 * What a call would do, for the approval card (docs/approval.md "Approval binding"), computed by the tool's own code
 * without effects: the diff of an edit, the command line of an execution, or the refusal the tool would give (an
 * edit it would refuse never shows a diff).
 */
export type Preview =
  | { kind: 'diff'; path: string; oldContent: string | null; newContent: string }
  /**
   * `sandboxedIn`: the command runs in the sandbox for a session working in this folder; the card says where, drawn
   * when it is shown (docs/approval.md "The sandbox on the card").
   */
  | { kind: 'command'; text: string; sandboxedIn?: string }
  | { kind: 'refused'; reason: string };

/** What a dry run may know: the paths, no signal, no log (it has no effects to stop or report). */
export type PreviewContext = Pick<
  ToolRunContext,
  'workingDir' | 'workspaceDir' | 'protectedRoots' | 'defaultWorkspaceDir'
>;

/** The normalized arguments of a call, or a message the model can read when they cannot be normalized. */
export type Normalized = { ok: true; args: ToolArgs } | { ok: false; error: string };

/** Every tool, whoever runs it (docs/tools.md "One tool shape"): its traits, its schema, its label and its run. */
export interface Tool<Input extends z.ZodType = z.ZodType> extends ToolTraits {
  readonly description: string;
  /** The zod schema: the single source of the JSON Schema the model sees and of runtime validation. */
  readonly input: Input;
  readonly category: ToolCategory;
  readonly kind: ToolKind;
  readonly subAgentsOnly?: boolean;
  readonly rootAgentOnly?: boolean;
  /** Read-only or declared idempotent: may re-run after a crash without asking (docs/architecture.md). */
  readonly isIdempotent?: boolean;
  /** Arguments that hold secrets: sealed before the call's row is written (docs/plugins.md, "Secret arguments"). */
  readonly secretPaths?: SecretPaths;
  /** The JSON Schema the model sees: built at first use, then the same frozen object every time. */
  parametersSchema(): Record<string, unknown>;
  /**
   * The one normalized form of a call's arguments (docs/approval.md "The normalized call"): aliases folded, the zod
   * parse (coercions, defaults, unknown keys dropped), paths absolute against `workingDir`. Idempotent. Everything
   * after it (gate, card, hash, row, execution) uses its output.
   */
  normalize(args: ToolArgs, workingDir: string): Normalized;
  /** The dry run the approval card shows; null when the tool has nothing to preview (or the preview is too big). */
  preview(args: ToolArgs, ctx: PreviewContext): Preview | null;
  describe(args: ToolArgs, length: LabelLength): string;
  targetPath(args: ToolArgs): string | null;
  /**
   * The async work path (docs/architecture.md "Tools"): validates `args` and does the work. Resolves to the
   * outcome; a bad argument, a missing file or a refused path is a `failed` outcome with a message written for the
   * model, never a rejection. Sync tools implement `execute` and get this for free from `defineTool`.
   */
  executeAsync(args: ToolArgs, ctx: ToolRunContext): Promise<ExecutionOutcome>;
  /** Default: a `SimpleExecution` around `executeAsync`. Override for a bespoke `stop()` (remote teardown). */
  run(args: ToolArgs, ctx: ToolRunContext): ToolExecution;
  openaiDefinition(): OpenAiToolDefinition;
}

export interface OpenAiToolDefinition {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/**
 * Interface tools: the tools that need the session, the frame (who calls, at what depth) or a core service, and so
 * are run by the session rather than the registry (docs/agents.md "Session tools"). They have the one tool shape's
 * traits (docs/tools.md "One tool shape": kind, category, default decision, card, label), which the gate, the seeds,
 * the labels and the card read as they read any tool's; each is one file with a zod input (the source of the JSON
 * Schema the model sees and of the validation) and a `run` that returns what the model reads. Which frame is offered
 * which interface tool is decided in one place (agents/tool-sets.ts), not here.
 */
import { z } from 'zod';
import { maxLabel, truncateLabel, type LabelLength } from '../../../../shared/labels';
import type { ExecutionOutcome, ToolArgs, ToolTraits } from '../tool';

/**
 * An agent frame: who is running in a turn at one level of the call stack (docs/agents.md "Sub-agents"). Depth 0 is
 * the session's own agent (`main` in a chat, the job's agent in a background run); each sync sub-agent runs one level
 * deeper in a child stack of the same session. The frame decides which tools are offered (agents/tool-sets.ts) and
 * labels what the person sees (agents/frame.ts).
 */
export interface AgentFrame {
  sessionId: number;
  /** null for depth 0 (the session's own rows); the child stack's id otherwise. */
  stackId: number | null;
  depth: number;
  agentId: string;
  agentName: string;
  agentType: 'chat' | 'task' | 'system';
  /** A chat session a person watches; false for background runs (async tasks, cron jobs). */
  interactive: boolean;
  /** Narrows the built-in tools (meta.json `tools`); null = no narrowing. */
  toolAllowList: string[] | null;
}

/** A session's shared scratchpad as `update_scratchpad` writes it (session/scratchpad-store.ts keeps the table). */
export interface ScratchpadPort {
  /** Writes the note `key` of `padSessionId`'s scratchpad, or removes it for an empty value (then true). */
  write(padSessionId: number, key: string, value: string): boolean;
}

/**
 * The caller's whole call environment, as the tools hand it on without reading it (the session's `CallEnv`): a sync
 * sub-agent derives its child's from it. Opaque here, so that tools/ does not import the session.
 */
export interface ParentCall {
  readonly sessionId: number;
}

/** The sub-agent side of the core, as the interface tools need it (session/sub-agent-runner.ts implements it). */
export interface SubAgentPort {
  /** Runs a child stack inline; its final answer is the outcome. */
  runSync(parent: ParentCall, toolCallId: string, request: TaskRequest): Promise<ExecutionOutcome>;
}

/** The background side (async tasks, cron jobs, notifications); absent until the scheduler is wired. */
export interface BackgroundPort {
  startAsync(parent: ParentCall, toolCallId: string, request: TaskRequest): ExecutionOutcome;
  createCronJob(parent: ParentCall, request: TaskRequest & { cron: string }): ExecutionOutcome;
  notify(parent: ParentCall, notification: NotificationInput): ExecutionOutcome;
}

export interface TaskRequest {
  agentId: string;
  prompt: string;
  title: string;
  /** A model for the child (id or display name); else its meta.json's, else the default. */
  client?: string;
}

export interface NotificationInput {
  source: string;
  event_type: string;
  summary: string;
  event_time?: string;
  refs?: string[];
}

/** What one call of an interface tool may use. */
export interface SyntheticEnv {
  sessionId: number;
  /** Whose scratchpad this agent shares: its own session's, or for an async task its parent session's. */
  padSessionId: number;
  workingDir: string;
  workspaceDir: string;
  frame: AgentFrame;
  openFile: (path: string) => void;
  scratchpad: ScratchpadPort;
  /** Tells the UI a session's scratchpad changed (the side panel reloads it). */
  scratchpadChanged: () => void;
  /** The names `activate_tools` accepts now, for its reply and validation. */
  groupNames: () => string[];
  grant: (names: string[]) => void;
  subAgents: SubAgentPort;
  background: BackgroundPort | null;
}

export interface InterfaceCall {
  env: SyntheticEnv;
  /** The whole call environment of the caller (a sync sub-agent derives its child's from it). */
  callEnv: ParentCall;
  toolCallId: string;
}

export interface InterfaceTool<S extends z.ZodType = z.ZodType> extends ToolTraits {
  description: string | (() => string);
  input: S;
  /** Former names whose stored calls it labels (a renamed tool's old rows). */
  formerNames?: readonly string[];
  /** Its card's label from the arguments as sent (unchecked: a label never throws and falls back to the name). */
  describe(args: ToolArgs, length: LabelLength, name?: string): string;
  /** The path its card links to, or null. */
  targetPath(args: ToolArgs): string | null;
  run(args: z.output<S>, call: InterfaceCall): string | ExecutionOutcome | Promise<string | ExecutionOutcome>;
}

type Traits = Omit<ToolTraits, 'name' | 'category' | 'pathKeys' | 'commandKey' | 'storesSecret'>;

export interface InterfaceToolDefinition<S extends z.ZodType> extends Partial<Traits> {
  name: string;
  description: string | (() => string);
  input: S;
  formerNames?: readonly string[];
  describe?: (args: ToolArgs, length: LabelLength, name: string) => string;
  targetPath?: (args: ToolArgs) => string | null;
  run(args: z.output<S>, call: InterfaceCall): string | ExecutionOutcome | Promise<string | ExecutionOutcome>;
}

/** A text argument as a label shows it: trimmed, or null when absent or blank. */
export const labelText = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** An interface tool: kind `interface`, asked by default, a plain card, its name as label, unless it says otherwise. */
export function defineInterfaceTool<S extends z.ZodType>(def: InterfaceToolDefinition<S>): InterfaceTool<S> {
  const shape = def.input instanceof z.ZodObject ? (def.input.shape as Record<string, unknown>) : {};
  return {
    name: def.name,
    description: def.description,
    input: def.input,
    kind: def.kind ?? 'interface',
    category: null,
    defaultDecision: def.defaultDecision ?? 'require',
    pathKeys: 'path' in shape ? ['path'] : [],
    commandKey: null,
    storesSecret: false,
    card: def.card ?? 'none',
    ...(def.formerNames ? { formerNames: def.formerNames } : {}),
    describe: (args, length, name = def.name) =>
      truncateLabel(def.describe ? def.describe(args, length, name) : name, maxLabel(length)),
    targetPath: (args) => (def.targetPath ? def.targetPath(args) : null),
    run: def.run,
  };
}

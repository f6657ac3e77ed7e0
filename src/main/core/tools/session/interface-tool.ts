/**
 * Interface tools: the tools that need the session, the frame (who calls, at what depth) or a core service, and so
 * live outside the registry (docs/agents.md "Session tools"). Each is one file with a zod input (the source of the
 * JSON Schema the model sees and of the validation) and a `run` that returns what the model reads. Which frame is
 * offered which interface tool is decided in one place (agents/tool-sets.ts), not here.
 */
import type { z } from 'zod';
import type { AgentFrame } from '../../agents/frame';
import type { Db } from '../../db/database';
import type { CallEnv } from '../../session/tool-call';
import type { ExecutionOutcome } from '../tool';

/** The sub-agent side of the core, as the interface tools need it (agents/sub-agent-runner.ts implements it). */
export interface SubAgentPort {
  /** Runs a child stack inline; its final answer is the outcome. */
  runSync(parent: CallEnv, toolCallId: string, request: TaskRequest): Promise<ExecutionOutcome>;
}

/** The background side (async tasks, cron jobs, notifications); absent until the scheduler is wired. */
export interface BackgroundPort {
  startAsync(parent: CallEnv, toolCallId: string, request: TaskRequest): ExecutionOutcome;
  createCronJob(parent: CallEnv, request: TaskRequest & { cron: string }): ExecutionOutcome;
  notify(parent: CallEnv, notification: NotificationInput): ExecutionOutcome;
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
  db: Db;
  sessionId: number;
  /** Whose scratchpad this agent shares: its own session's, or for an async task its parent session's. */
  padSessionId: number;
  workingDir: string;
  workspaceDir: string;
  frame: AgentFrame;
  openFile: (path: string) => void;
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
  callEnv: CallEnv;
  toolCallId: string;
}

export interface InterfaceTool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string | (() => string);
  input: S;
  run(args: z.output<S>, call: InterfaceCall): string | ExecutionOutcome | Promise<string | ExecutionOutcome>;
}

export const defineInterfaceTool = <S extends z.ZodType>(tool: InterfaceTool<S>): InterfaceTool =>
  tool as unknown as InterfaceTool;

/**
 * What a `SessionManager` is built from (docs/architecture.md "Layers inside the core"): the services the composition root hands the
 * session room. Its own file, so that the pieces the manager is made of (turn-env.ts, slash-hooks.ts) read it without
 * importing the manager.
 */
import type { RunContext } from '../../../shared/run-context';
import type { AgentRegistry } from '../agents/agent-registry';
import type { StackStore } from '../agents/stack-store';
import type { ToolSetDeps } from '../agents/tool-sets';
import type { Db } from '../db/database';
import type { EventBus } from '../events';
import type { CallSecrets } from '../secrets/sealed-args';
import type { BackgroundPort } from '../tools/session/interface-tool';
import type { PendingInfo } from './history';
import type { FileImagesPort, GatePort, ModelPort, ToolSpec, ToolsPort } from './ports';

export interface ModelCatalogPort {
  listModelsText(current: string | null): string;
  selectModel(arg: string): { ok: boolean; selection: 'auto' | string; message: string };
  /** The model a selection starts at and the context window its requests are fitted to; null with no model. */
  contextWindowOf(selection: string | null): { model: string; tokens: number; isSet: boolean } | null;
}

export interface SessionDeps {
  db: Db;
  events: EventBus;
  tools: ToolsPort;
  gate: GatePort;
  model: ModelPort;
  models: ModelCatalogPort;
  workspaceDir: string;
  dataDir: string;
  /** The agents on disk (read per request) and what a frame is offered (docs/agents.md). */
  agents: AgentRegistry;
  toolSets: ToolSetDeps;
  stacks: StackStore;
  /** Async tasks, cron jobs, notifications; null until the scheduler is wired. */
  background?: () => BackgroundPort | null;
  pendingOf: (toolCallId: string) => PendingInfo | null;
  requestRestart: () => void;
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** Sees the tool list offered each round (tool discovery: known_tools), off the hot path. */
  onToolsOffered?: (tools: ToolSpec[]) => void;
  /** Seals tool calls' secret arguments; absent = no tool has any (docs/plugins.md). */
  callSecrets?: CallSecrets;
  /** Keeps write calls' before/after images (docs/viewer.md "Diff and revert"). */
  fileImages?: FileImagesPort;
  /** What a new session starts with (the settings' default working directory and permission group). */
  newSessionContext?: () => Partial<RunContext>;
  /** The person's standing instructions (Settings → General), read each round; absent = none. */
  personInstructions?: () => string;
}

/**
 * What one tool call runs with (docs/architecture.md "The path of one tool call"): the session's store, tools, gate and
 * events, its agent and working directory, and the turn's stop signal. Built for each turn (turn-env.ts).
 */
import type { ChatEventBody } from '../../../shared/contract/chat';
import type { RunContext } from '../../../shared/run-context';
import type { ToolCall } from '../../../shared/tool-call';
import type { CallSecrets } from '../secrets/sealed-args';
import type { FileImagesPort, GatePort, ToolsPort } from './ports';
import type { SessionStore } from './session-store';
import type { SyntheticEnv } from './synthetic-tools';

export interface CallEnv {
  store: SessionStore;
  tools: ToolsPort;
  gate: GatePort;
  emit: (body: ChatEventBody) => void;
  sessionId: number;
  agentId: string;
  source: string;
  runContext: RunContext;
  workingDir: string;
  workspaceDir: string;
  protectedRoots: string[];
  /** The app's default workspace: its secrets/ stay guarded when the session works elsewhere (ToolRunContext). */
  defaultWorkspaceDir?: string;
  signal: AbortSignal;
  synthetic: SyntheticEnv;
  requestRestart: () => void;
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** Seals secret arguments (set_secret's value …) before a row is written; opens them only to run. */
  secrets: CallSecrets;
  /** Keeps before/after images of write calls; absent in tests that do not need them. */
  fileImages?: FileImagesPort;
  /** The tools offered in this round; a call of another name is refused. Absent on resume (offered back then). */
  offered?: ReadonlySet<string>;
  /** Parallel sub-agent calls: awaited before the result is recorded, so results keep the call order. */
  beforeRecord?: () => Promise<void>;
}

export type CallOutcome = 'continue' | 'cancelled';

/** A call as the model sent it (its `id` is the provider's), or, once keyed, as the app runs it: the one `ToolCall`. */
export type ModelCall = ToolCall;

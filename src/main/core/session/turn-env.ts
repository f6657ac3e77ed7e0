/**
 * What one turn of a session runs with (`TurnEnv`): the session's run context and working directory, its root
 * agent's frame, the synthetic tools' reach, and the per-round reads (the context window, the tools offered).
 * Built by the SessionManager when a turn starts (docs/architecture.md "The path of one tool call").
 */
import type { ChatEventBody } from '../../../shared/contract/chat';
import type { RunContext } from '../../../shared/run-context';
import { MAIN_AGENT_ID } from '../agents/agent-registry';
import type { AgentFrame } from '../agents/frame';
import type { SubAgentRunner } from './sub-agent-runner';
import { toolSetFor, withCurrentAllowList } from '../agents/tool-sets';
import { statement, type Db } from '../db/database';
import { NO_CALL_SECRETS } from '../secrets/sealed-args';
import { latestSummary } from './compaction';
import type { ToolSpec } from './ports';
import { instructionsPrompts, personPrompts } from './project-instructions';
import { readScratchpad } from './scratchpad-store';
import type { SessionDeps } from './session-deps';
import type { SessionRow } from '../db/session-rows';
import type { SessionStore } from './session-store';
import { scratchpadOf, type SyntheticEnv } from './synthetic-tools';
import type { CallEnv } from './tool-call';
import type { TurnEnv } from './turn';

/** What the builder reads from the SessionManager. */
export interface TurnEnvSource {
  deps: SessionDeps;
  store: SessionStore;
  subAgents: SubAgentRunner;
  session(sessionId: number): SessionRow;
  runContext(sessionId: number): RunContext;
  workingDir(sessionId: number): string;
  emitter(sessionId: number): (body: ChatEventBody) => void;
}

/** Whose scratchpad a session's agents share: an async task's parent session's, else its own. */
export function padSessionOf(db: Db, sessionId: number): number {
  const row = statement(db, 'SELECT parent_session_id FROM chat_sessions WHERE id = ?').get(sessionId) as
    | { parent_session_id?: number | null }
    | undefined;
  return row?.parent_session_id ?? sessionId;
}

export function buildTurnEnv(src: TurnEnvSource, sessionId: number, signal: AbortSignal): TurnEnv {
  const { deps } = src;
  const session = src.session(sessionId);
  const runContext = src.runContext(sessionId);
  const workingDir = src.workingDir(sessionId);
  const emit = src.emitter(sessionId);
  const frame = rootFrame(deps, session);
  const synthetic: SyntheticEnv = {
    db: deps.db,
    sessionId,
    padSessionId: padSessionOf(deps.db, sessionId),
    workingDir,
    workspaceDir: workingDir,
    frame,
    openFile: (path) => {
      deps.events.emit('viewer', { type: 'open_file', path, tool_call_id: null });
    },
    scratchpad: scratchpadOf(deps.db),
    scratchpadChanged: () => src.emitter(padSessionOf(deps.db, sessionId))({ type: 'scratchpad_changed' }),
    groupNames: () => deps.toolSets.groups.list().map((g) => g.name),
    grant: (names) => deps.toolSets.grants.grant({ sessionId, stackId: null }, names),
    subAgents: src.subAgents,
    background: deps.background?.() ?? null,
  };
  const callEnv: CallEnv = {
    store: src.store,
    tools: deps.tools,
    gate: deps.gate,
    emit,
    sessionId,
    agentId: session.agent_id,
    source: session.source,
    // The session's working directory is the workspace its file tools are confined to (chosen by the
    // person; the data folder's workspace/ by default: docs/architecture.md "Shapes and processes").
    runContext,
    workingDir,
    workspaceDir: workingDir,
    protectedRoots: [deps.dataDir],
    defaultWorkspaceDir: deps.workspaceDir,
    signal,
    synthetic,
    requestRestart: deps.requestRestart,
    log: deps.log,
    secrets: deps.callSecrets ?? NO_CALL_SECRETS,
    fileImages: deps.fileImages,
  };
  return {
    ...callEnv,
    model: deps.model,
    modelSelection: session.model ?? 'auto',
    context: () => ({
      sessionId,
      ...contextWindow(deps.db, src.session(sessionId).context_start_id, sessionId),
      systemPrompt:
        deps.agents.prompt(session.agent_id) ??
        "You are Skald, a careful assistant that acts through tools on the user's machine.",
      // The run context's prompts, the person's own instructions, then the working directory's AGENTS.md as it is now
      // (project-instructions.ts).
      extraSystemPrompts: [
        ...(runContext.system_prompt ?? []),
        ...personPrompts(deps.personInstructions?.() ?? ''),
        ...instructionsPrompts(callEnv),
      ],
      workingDir,
      scratchpad: readScratchpad(deps.db, synthetic.padSessionId),
    }),
    // meta.json read each round: an edited allow-list applies from the next one (docs/agents.md "Agents").
    toolSpecs: () => toolSpecs(deps, withCurrentAllowList(frame, deps.agents), runContext),
    injectQueued: () => {
      for (const m of src.store.injectQueued(sessionId)) {
        const images = src.store.images.listed(sessionId, m.newId, m.newId).byMessage.get(m.newId);
        emit({
          type: 'user_message',
          message_id: m.newId,
          content: m.content,
          queued: false,
          replaces: m.oldId,
          ...(images ? { images } : {}),
        });
      }
    },
  };
}

/** Where the model's context starts: after `/clear`, or after the rows a `/compact` summary stands in for. */
function contextWindow(db: Db, cleared: number, sessionId: number): { contextStartId: number; summary: string | null } {
  const summary = latestSummary(db, sessionId);
  return summary && summary.upToMessageId > cleared
    ? { contextStartId: summary.upToMessageId, summary: summary.summary }
    : { contextStartId: cleared, summary: null };
}

function toolSpecs(deps: SessionDeps, frame: AgentFrame, runContext: RunContext): ToolSpec[] {
  const offered = toolSetFor(frame, runContext.security_group, deps.toolSets);
  deps.onToolsOffered?.(offered);
  return offered;
}

/** The session's own agent (depth 0): `main` in a chat, the job's agent in a background run. */
function rootFrame(deps: SessionDeps, session: SessionRow): AgentFrame {
  const agent = deps.agents.get(session.agent_id);
  const known = 'error' in agent ? null : agent;
  return {
    sessionId: session.id,
    stackId: null,
    depth: 0,
    agentId: session.agent_id,
    agentName: known?.name ?? session.agent_id,
    agentType: known?.type ?? (session.agent_id === MAIN_AGENT_ID ? 'chat' : 'task'),
    interactive: session.is_interactive === 1,
    // A task agent that cannot be read gets no built-in tools (never all of them); the chat agent keeps working.
    toolAllowList: known ? known.tools : session.agent_id === MAIN_AGENT_ID ? null : [],
  };
}

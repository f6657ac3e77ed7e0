/**
 * The chat sessions service: one turn at a time per session, messages sent during a turn queued for the next
 * round boundary, `/stop` through one cancel signal per turn, slash commands in the core, and resume after a
 * restart (docs/architecture.md "Crash and resume"). The message is persisted and echoed (`user_message`) before
 * anything else runs.
 * Check ids (R2) are listed in docs/security-checks.md.
 */
import { existsSync, statSync } from 'node:fs';
import { BridgeError } from '../../../shared/contract/define';
import type { ChatEventBody, HistoryMessage, SubAgentStack } from '../../../shared/contract/chat';
import { MAIN_AGENT_ID, type AgentRegistry } from '../agents/agent-registry';
import type { AgentFrame } from '../agents/frame';
import type { StackStore } from '../agents/stack-store';
import { SubAgentRunner } from '../agents/sub-agent-runner';
import { toolSetFor, withCurrentAllowList, type ToolSetDeps } from '../agents/tool-sets';
import type { BackgroundPort } from '../tools/session/interface-tool';
import { RunContextSchema, type RunContext } from '../../../shared/run-context';
import { statement, type Db } from '../db/database';
import { DISK_FULL_TURN_TEXT, isDiskFull } from '../db/storage-errors';
import type { EventBus } from '../events';
import { canonicalizeForPolicy, pathUnder, resolvePath } from '../tools/_policy/paths';
import { compactSession, latestSummary } from './compaction';
import { historyMessages, type PendingInfo } from './history';
import type { FileImagesPort, GatePort, ModelPort, ToolSpec, ToolsPort } from './ports';
import { SessionStore } from './session-store';
import { isSlashCommand, runSlashCommand } from './slash-commands';
import { readScratchpad, writeScratchpadNote, type ScratchpadNote } from './scratchpad-store';
import type { SyntheticEnv } from './synthetic-tools';
import { NO_CALL_SECRETS, type CallSecrets } from '../secrets/sealed-args';
import { executeCall, startRound, type CallEnv } from './tool-call';
import { runTurn, type TurnEnv, type TurnResult } from './turn';

/** The arguments of a call that delivered a result by itself (its card's label says so; docs/scheduler.md). */
const DELIVERED_ARGS = '{"delivered":true}';

export interface ModelCatalogPort {
  listModelsText(current: string | null): string;
  selectModel(arg: string): { ok: boolean; selection: 'auto' | string; message: string };
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
}

interface ActiveTurn {
  controller: AbortController;
  done: Promise<TurnResult>;
}

const INTERRUPTED_MOVED_ON = 'Interrupted when the app stopped, and not re-run: the conversation moved on.';
const STOPPED_WHILE_PENDING = 'Not run: the turn was stopped while this call waited for approval.';
const NOT_STARTED_MOVED_ON = 'Not started: it waited behind a call the app interrupted, and the conversation moved on.';

export class SessionManager {
  readonly store: SessionStore;
  private readonly active = new Map<number, ActiveTurn>();
  private readonly subAgents: SubAgentRunner;

  /** Set by `stopAll` (app exit): nothing delivered by itself starts a turn any more. */
  private closing = false;

  constructor(private readonly deps: SessionDeps) {
    this.store = new SessionStore(deps.db);
    this.subAgents = new SubAgentRunner({
      model: deps.model, store: this.store, stacks: deps.stacks, agents: deps.agents, toolSets: deps.toolSets,
      resolveModel: (arg) => deps.models.selectModel(arg),
    });
  }

  private emitter(sessionId: number) {
    return (body: ChatEventBody) => this.deps.events.emit('chat', { ...body, session_id: sessionId } as never);
  }

  isRunning(sessionId: number): boolean {
    return this.active.has(sessionId);
  }

  createSession(title = ''): number {
    const defaults = this.deps.newSessionContext?.() ?? null;
    return this.store.createSession(title, defaults && Object.keys(defaults).length ? defaults : null);
  }

  private session(sessionId: number) {
    const row = this.store.getSession(sessionId);
    if (!row) throw new BridgeError('not_found', `There is no session ${sessionId}.`);
    return row;
  }

  runContext(sessionId: number): RunContext {
    const raw = this.session(sessionId).run_context;
    const parsed = RunContextSchema.safeParse(raw ? JSON.parse(raw) : {});
    return parsed.success ? parsed.data : RunContextSchema.parse({});
  }

  workingDir(sessionId: number): string {
    return this.runContext(sessionId).working_directory ?? this.deps.workspaceDir;
  }

  listSessions() {
    return this.store.listSessions().map((s) => ({
      id: s.id,
      title: s.title || `Session ${s.id}`,
      updated_at: s.updated_at,
      running: this.isRunning(s.id),
      working_directory: this.workingDir(s.id),
      model: s.model,
    }));
  }

  history(sessionId: number, beforeId = Number.MAX_SAFE_INTEGER, limit = 200): { messages: HistoryMessage[]; hasMore: boolean; running: boolean } {
    this.session(sessionId);
    const page = this.store.page(sessionId, beforeId, limit);
    const messages = historyMessages(page.messages, page.tools, this.deps.tools, this.isRunning(sessionId), this.deps.pendingOf);
    return { messages, hasMore: page.hasMore, running: this.isRunning(sessionId) };
  }

  /** The model picker: `auto`, a model id, a display name or a list number (as `/model`). */
  setModel(sessionId: number, arg: string): { model: string | null; message: string } {
    this.session(sessionId);
    const result = this.deps.models.selectModel(arg);
    if (!result.ok) throw new BridgeError('bad_request', result.message);
    const model = result.selection === 'auto' ? null : result.selection;
    this.store.setModel(sessionId, model);
    return { model, message: result.message };
  }

  setWorkingDirectory(sessionId: number, path: string): string {
    const absolute = this.checkWorkingDirectory(path, this.workingDir(sessionId));
    this.store.setRunContext(sessionId, { ...this.runContext(sessionId), working_directory: absolute });
    return absolute;
  }

  /** The absolute form of a usable working directory, or a BridgeError saying why it is not one. */
  checkWorkingDirectory(path: string, base: string = this.deps.workspaceDir): string {
    const absolute = resolvePath(path, base);
    if (!existsSync(absolute) || !statSync(absolute).isDirectory()) throw new BridgeError('bad_request', `Not a directory: ${absolute}`);
    // The app's own data (database, settings, rules) is never a workspace; only its default workspace/ folder is.
    const real = canonicalizeForPolicy(absolute, absolute);
    const data = canonicalizeForPolicy(this.deps.dataDir, this.deps.dataDir);
    if (pathUnder(real, data) && !pathUnder(real, canonicalizeForPolicy(this.deps.workspaceDir, this.deps.workspaceDir))) {
      throw new BridgeError('bad_request', "The app's data folder cannot be a working directory.");
    }
    return absolute;
  }

  /** The permission group the session's next calls are judged by (the caller checks that it exists). */
  setSecurityGroup(sessionId: number, groupId: string): void {
    this.store.setRunContext(sessionId, { ...this.runContext(sessionId), security_group: groupId });
  }

  /** Persist + echo first; then a slash command, a queued message (turn running), or a new turn. */
  send(sessionId: number, content: string): { messageId: number | null } {
    this.session(sessionId);
    const emit = this.emitter(sessionId);
    if (isSlashCommand(content)) {
      const { command, reply } = runSlashCommand(content, this.slashHooks(sessionId));
      emit({ type: 'command_reply', command, content: reply });
      return { messageId: null };
    }
    const running = this.isRunning(sessionId);
    const messageId = this.store.appendMessage({ sessionId, role: 'user', content, queued: running });
    emit({ type: 'user_message', message_id: messageId, content, queued: running });
    if (!running) {
      if (!this.store.getSession(sessionId)!.title) this.store.rename(sessionId, content.slice(0, 60));
      this.failInterrupted(sessionId);
      this.startTurn(sessionId, (env) => runTurn(env));
    }
    return { messageId };
  }

  /**
   * A background run's prompt (docs/scheduler.md): persisted and echoed like a person's message (never read as a
   * slash command), then a turn; resolves with how the turn ended. The session must not be running.
   */
  runPrompt(sessionId: number, content: string): Promise<TurnResult> {
    this.session(sessionId);
    if (this.isRunning(sessionId)) throw new BridgeError('busy', `Session ${sessionId} is already running a turn.`);
    const messageId = this.store.appendMessage({ sessionId, role: 'user', content });
    this.emitter(sessionId)({ type: 'user_message', message_id: messageId, content, queued: false });
    this.startTurn(sessionId, (env) => runTurn(env));
    return this.active.get(sessionId)!.done;
  }

  /**
   * Something that arrived by itself (an async task's `task_completed`, a batch of notifications) as a finished
   * call of `toolName` in the session's own history, then a turn so its agent reads it (docs/scheduler.md
   * "Delivery"). A running turn is waited for first: rows are never slipped into the middle of a round.
   * Resolves once the rows are written (the turn it starts runs on).
   */
  async deliverResult(sessionId: number, toolName: string, result: string): Promise<void> {
    this.session(sessionId);
    while (this.isRunning(sessionId)) await this.settle(sessionId);
    if (this.closing) return; // the app is quitting: no new turn (the result stays in its run's row)
    const emit = this.emitter(sessionId);
    const { messageId, key } = this.store.transaction(() => {
      const messageId = this.store.appendMessage({ sessionId, role: 'assistant', content: '' });
      const [key] = this.store.insertRoundTools(sessionId, messageId, [{ id: 'delivered', name: toolName, arguments: DELIVERED_ARGS }]);
      this.store.finishTool(key!, 'done', result, 'json');
      return { messageId, key: key! };
    });
    const label = this.deps.tools.describeCall(toolName, { delivered: true }, 'short');
    emit({ type: 'tool_start', tool_call_id: key, message_id: messageId, name: toolName, arguments: DELIVERED_ARGS, label_short: label, label_full: label, path: null });
    emit({ type: 'tool_done', tool_call_id: key, result, result_type: 'json' });
    this.startTurn(sessionId, (env) => runTurn(env));
  }

  stop(sessionId: number): boolean {
    const turn = this.active.get(sessionId);
    if (!turn) return false;
    turn.controller.abort();
    this.deps.gate.cancelForSession(sessionId);
    this.store.dropQueued(sessionId);
    return true;
  }

  /** Stops every running turn and waits for them (app exit). */
  async stopAll(): Promise<void> {
    this.closing = true;
    const running = [...this.active.keys()];
    running.forEach((id) => this.stop(id));
    await Promise.all(running.map((id) => this.settle(id)));
  }

  /** Waits for the session's running turn (tests, shutdown). */
  async settle(sessionId: number): Promise<TurnResult | null> {
    return (await this.active.get(sessionId)?.done) ?? null;
  }

  /** The user said "re-run" for a call a crash interrupted: back through the gate, then the turn continues. */
  rerunTool(sessionId: number, toolCallId: string): boolean {
    const row = this.store.getTool(toolCallId);
    if (!row || row.session_id !== sessionId) throw new BridgeError('not_found', 'No such tool call in this session.');
    if (row.status !== 'running' || this.isRunning(sessionId)) return false;
    this.startTurn(sessionId, async (env) => {
      if ((await executeCall(env, { id: row.tool_call_id, name: row.name, arguments: row.arguments })) === 'cancelled') return 'cancelled';
      // The calls that waited behind it come next, in order.
      return this.continueUnfinished(env, sessionId);
    });
    return true;
  }

  /**
   * A write the person asked for from the viewer (a revert): a real `write_file` call under the message of the
   * call it undoes, through the gate and its approval like any other write; no model round follows. Returns the
   * new call's id when its row is already written (its card shows in the chat).
   */
  runPersonWrite(sessionId: number, messageId: number, path: string, content: string): string {
    this.session(sessionId);
    if (this.isRunning(sessionId)) throw new BridgeError('busy', 'A turn is running in this session; revert once it has finished.');
    let id = '';
    this.startTurn(sessionId, async (env) => {
      const [call] = startRound(env, [{ id: 'revert', name: 'write_file', arguments: JSON.stringify({ path, content }) }], messageId);
      id = call!.id;
      return (await executeCall(env, call!)) === 'cancelled' ? 'cancelled' : 'done';
    });
    return id;
  }

  /**
   * After a restart (R2): `pending` rows are asked again; `queued` rows (never started) and read-only/idempotent
   * `running` rows run through the gate with the current rules; side-effecting `running` ones wait for the user's
   * re-run, and the calls behind them wait with them. Queued messages become history.
   */
  resumeAll(): void {
    const sessions = new Set(this.store.activeTools().map((row) => row.session_id));
    for (const sessionId of sessions) this.resumeSession(sessionId);
  }

  /** Resumes one session's unfinished calls, unless a turn already runs there (it will reach them itself). */
  resumeSession(sessionId: number): boolean {
    if (this.isRunning(sessionId)) return false;
    const rows = this.store.activeTools().filter((row) => row.session_id === sessionId);
    if (rows.length === 0) return false;
    this.store.unqueueAll(sessionId);
    this.startTurn(sessionId, (env) => this.continueUnfinished(env, sessionId));
    return true;
  }

  /**
   * Takes a session's unfinished calls in order, then the turn goes on. A side-effecting call the app interrupted
   * mid-run (`running`, nothing runs it now) may have half happened: each is shown interrupted, and the calls from
   * the first of them on wait for the person (`chat:rerunTool`, or a new message that moves on past them).
   */
  private async continueUnfinished(env: TurnEnv, sessionId: number): Promise<TurnResult> {
    const emit = this.emitter(sessionId);
    const rows = this.store.activeTools().filter((row) => row.session_id === sessionId);
    const interrupted = rows.filter((row) => row.status === 'running' && !this.deps.tools.isIdempotent(row.name));
    for (const row of interrupted) emit({ type: 'tool_interrupted', tool_call_id: row.tool_call_id });
    for (const row of rows) {
      if (interrupted.includes(row)) return 'done';
      if ((await executeCall(env, { id: row.tool_call_id, name: row.name, arguments: row.arguments })) === 'cancelled') return 'cancelled';
    }
    return this.store.activeTools().some((r) => r.session_id === sessionId) ? 'done' : runTurn(env);
  }

  /**
   * A new message moves on past calls a crash interrupted: they end `failed`, so the model sees why; the calls that
   * waited behind them end `cancelled`, never started.
   */
  private failInterrupted(sessionId: number): void {
    const emit = this.emitter(sessionId);
    for (const row of this.store.activeTools()) {
      if (row.session_id !== sessionId) continue;
      if (row.status === 'running') {
        this.store.finishTool(row.tool_call_id, 'failed', INTERRUPTED_MOVED_ON);
        emit({ type: 'tool_error', tool_call_id: row.tool_call_id, error: INTERRUPTED_MOVED_ON });
      } else if (row.status === 'queued') {
        this.store.finishTool(row.tool_call_id, 'cancelled', NOT_STARTED_MOVED_ON);
        emit({ type: 'tool_cancelled', tool_call_id: row.tool_call_id, note: NOT_STARTED_MOVED_ON });
      } else if (this.deps.pendingOf(row.tool_call_id) === null) {
        // Its approval was withdrawn by /stop: nobody can approve it any more, so it ends as cancelled.
        this.store.finishTool(row.tool_call_id, 'cancelled', STOPPED_WHILE_PENDING);
        emit({ type: 'tool_cancelled', tool_call_id: row.tool_call_id, note: STOPPED_WHILE_PENDING });
      }
    }
  }

  private startTurn(sessionId: number, body: (env: TurnEnv) => Promise<TurnResult>): void {
    const controller = new AbortController();
    const emit = this.emitter(sessionId);
    const env = this.turnEnv(sessionId, controller.signal);
    emit({ type: 'turn_running', running: true });
    const done = (async (): Promise<TurnResult> => {
      try {
        return await body(env);
      } catch (error) {
        this.deps.log('turn failed', { sessionId, error: String(error) });
        emit({ type: 'error', message: isDiskFull(error) ? DISK_FULL_TURN_TEXT : `The turn failed: ${(error as Error).message}` });
        return 'failed';
      }
    })().then((result) => {
      if (result === 'cancelled') emit({ type: 'cancelled' });
      this.active.delete(sessionId);
      emit({ type: 'turn_running', running: false });
      return result;
    });
    this.active.set(sessionId, { controller, done });
  }

  private turnEnv(sessionId: number, signal: AbortSignal): TurnEnv {
    const { deps } = this;
    const session = this.session(sessionId);
    const runContext = this.runContext(sessionId);
    const workingDir = this.workingDir(sessionId);
    const emit = this.emitter(sessionId);
    const frame = this.rootFrame(sessionId);
    const synthetic: SyntheticEnv = {
      db: deps.db,
      sessionId,
      padSessionId: this.padSessionOf(sessionId),
      workingDir,
      workspaceDir: workingDir,
      frame,
      openFile: (path) => {
        deps.events.emit('viewer', { type: 'open_file', path, tool_call_id: null });
      },
      scratchpadChanged: () => this.emitter(this.padSessionOf(sessionId))({ type: 'scratchpad_changed' }),
      groupNames: () => deps.toolSets.groups.list().map((g) => g.name),
      grant: (names) => deps.toolSets.grants.grant({ sessionId, stackId: null }, names),
      subAgents: this.subAgents,
      background: deps.background?.() ?? null,
    };
    const callEnv: CallEnv = {
      store: this.store, tools: deps.tools, gate: deps.gate, emit, sessionId, agentId: session.agent_id, source: session.source,
      // The session's working directory is the workspace its file tools are confined to (chosen by the
      // person; the data folder's workspace/ by default: docs/architecture.md "Shapes and processes").
      runContext, workingDir, workspaceDir: workingDir, protectedRoots: [deps.dataDir], signal, synthetic,
      requestRestart: deps.requestRestart, log: deps.log, secrets: deps.callSecrets ?? NO_CALL_SECRETS, fileImages: deps.fileImages,
    };
    return {
      ...callEnv,
      model: deps.model,
      modelSelection: session.model ?? 'auto',
      context: () => ({
        sessionId,
        ...this.contextWindow(sessionId),
        systemPrompt: this.systemPrompt(session.agent_id),
        extraSystemPrompts: runContext.system_prompt ?? [],
        workingDir,
        scratchpad: readScratchpad(deps.db, synthetic.padSessionId),
      }),
      // meta.json read each round: an edited allow-list applies from the next one (docs/agents.md "Agents").
      toolSpecs: () => this.toolSpecs(withCurrentAllowList(frame, deps.agents), runContext),
      injectQueued: () => {
        for (const m of this.store.injectQueued(sessionId)) emit({ type: 'user_message', message_id: m.newId, content: m.content, queued: false, replaces: m.oldId });
      },
    };
  }

  /** Where the model's context starts: after `/clear`, or after the rows a `/compact` summary stands in for. */
  private contextWindow(sessionId: number): { contextStartId: number; summary: string | null } {
    const cleared = this.session(sessionId).context_start_id;
    const summary = latestSummary(this.deps.db, sessionId);
    return summary && summary.upToMessageId > cleared ? { contextStartId: summary.upToMessageId, summary: summary.summary } : { contextStartId: cleared, summary: null };
  }

  private toolSpecs(frame: AgentFrame, runContext: RunContext): ToolSpec[] {
    const offered = toolSetFor(frame, runContext.security_group, this.deps.toolSets);
    this.deps.onToolsOffered?.(offered);
    return offered;
  }

  /** The session's own agent (depth 0): `main` in a chat, the job's agent in a background run. */
  private rootFrame(sessionId: number): AgentFrame {
    const session = this.session(sessionId);
    const agent = this.deps.agents.get(session.agent_id);
    const known = 'error' in agent ? null : agent;
    return {
      sessionId, stackId: null, depth: 0, agentId: session.agent_id, agentName: known?.name ?? session.agent_id,
      agentType: known?.type ?? (session.agent_id === MAIN_AGENT_ID ? 'chat' : 'task'), interactive: session.is_interactive === 1,
      // A task agent that cannot be read gets no built-in tools (never all of them); the chat agent keeps working.
      toolAllowList: known ? known.tools : session.agent_id === MAIN_AGENT_ID ? null : [],
    };
  }

  /** Whose scratchpad a session's agents share: an async task's parent session's, else its own. */
  private padSessionOf(sessionId: number): number {
    const row = statement(this.deps.db, 'SELECT parent_session_id FROM chat_sessions WHERE id = ?').get(sessionId) as { parent_session_id?: number | null } | undefined;
    return row?.parent_session_id ?? sessionId;
  }

  private systemPrompt(agentId: string): string {
    return this.deps.agents.prompt(agentId) ?? "You are Skald, a careful assistant that acts through tools on the user's machine.";
  }

  /** The sub-agent card: the child stack a call started, with its messages (nested cards load their own). */
  subAgent(sessionId: number, parentToolCallId: string): { stack: SubAgentStack | null; messages: HistoryMessage[] } {
    this.session(sessionId);
    const row = this.deps.stacks.byParentCall(sessionId, parentToolCallId);
    if (!row) return { stack: null, messages: [] };
    const page = this.store.page(sessionId, Number.MAX_SAFE_INTEGER, 10_000, row.id);
    const running = row.terminated_at === null && this.isRunning(sessionId);
    const agent = this.deps.agents.get(row.agent_id);
    const messages = historyMessages(page.messages, page.tools, this.deps.tools, running, this.deps.pendingOf);
    const usage = this.deps.stacks.usage(row.id);
    return {
      stack: {
        stack_id: row.id, parent_tool_call_id: parentToolCallId, agent_id: row.agent_id, agent_name: 'error' in agent ? row.agent_id : agent.name,
        depth: row.depth, running, ...usage,
      },
      messages,
    };
  }

  scratchpad(sessionId: number): ScratchpadNote[] {
    this.session(sessionId);
    return readScratchpad(this.deps.db, this.padSessionOf(sessionId));
  }

  /** The person edits the scratchpad from the side panel; the agents see it from their next round. */
  setScratchpadNote(sessionId: number, key: string, value: string): ScratchpadNote[] {
    this.session(sessionId);
    const pad = this.padSessionOf(sessionId);
    writeScratchpadNote(this.deps.db, pad, key, value);
    this.emitter(pad)({ type: 'scratchpad_changed' });
    return readScratchpad(this.deps.db, pad);
  }

  private slashHooks(sessionId: number) {
    return {
      newSession: () => {
        const id = this.createSession();
        this.emitter(id)({ type: 'new_session' });
        return id;
      },
      clearContext: () => this.store.setContextStart(sessionId, (this.store.lastMessage(sessionId)?.id ?? 0) + 1),
      stop: () => this.stop(sessionId),
      listModels: () => this.deps.models.listModelsText(this.session(sessionId).model),
      selectModel: (arg: string) => {
        try {
          return this.setModel(sessionId, arg).message;
        } catch (error) {
          return (error as Error).message;
        }
      },
      contextReport: () => {
        const rows = this.store.contextMessages(sessionId, this.session(sessionId).context_start_id);
        const last = [...rows].reverse().find((r) => r.role === 'assistant');
        return `Context: ${rows.length} messages since the last /clear; last request used ${last?.input_tokens ?? 0} input tokens.\nWorking directory: ${this.workingDir(sessionId)}\nModel: ${this.session(sessionId).model ?? 'auto'}`;
      },
      costReport: () => {
        const u = this.store.usage(sessionId);
        const cost = u.priced > 0 ? `$${u.cost.toFixed(4)}` : 'unknown (no price configured)';
        return `This session: ${u.input} input tokens, ${u.output} output tokens, cost ${cost}.`;
      },
      compact: () => {
        if (this.isRunning(sessionId)) return 'A turn is running; /compact after it ends.';
        this.startTurn(sessionId, async (env) => {
          const reply = await compactSession(
            { db: this.deps.db, store: this.store, model: this.deps.model, modelSelection: env.modelSelection, signal: env.signal },
            sessionId,
            this.session(sessionId).context_start_id,
          );
          env.emit({ type: 'command_reply', command: '/compact', content: reply });
          return 'done';
        });
        return 'Compacting the older history…';
      },
      resetTools: () => {
        const n = this.deps.toolSets.grants.clearSession(sessionId);
        return n ? `Dropped ${n} activated tool group(s).` : 'No tool groups were active.';
      },
    };
  }
}

/**
 * The chat sessions service: one turn at a time per session, messages sent during a turn queued for the next
 * round boundary, `/stop` through one cancel signal per turn, slash commands in the core, and resume after a
 * restart (docs/architecture.md "Crash and resume"; outside-turns.ts, with the other turns no message starts). The
 * message is persisted and echoed (`user_message`) before anything else runs.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { ChatEventBody, HistoryMessage, SubAgentStack } from '../../../shared/contract/chat';
import type { AgentRegistry } from '../agents/agent-registry';
import type { StackStore } from '../agents/stack-store';
import { SubAgentRunner } from './sub-agent-runner';
import type { ToolSetDeps } from '../agents/tool-sets';
import type { BackgroundPort } from '../tools/session/interface-tool';
import { RunContextSchema, type RunContext } from '../../../shared/run-context';
import type { Db } from '../db/database';
import { DISK_FULL_TURN_TEXT, isDiskFull } from '../db/storage-errors';
import type { EventBus } from '../events';
import { historyMessages, type PendingInfo } from './history';
import { subAgentView } from './sub-agent-view';
import { usableWorkingDirectory } from './working-directory';
import type { FileImagesPort, GatePort, ModelPort, ToolSpec, ToolsPort } from './ports';
import { SessionStore } from './session-store';
import { isSlashCommand, runSlashCommand, type SlashHooks } from './slash-commands';
import { sessionSlashHooks } from './slash-hooks';
import { readScratchpad, writeScratchpadNote, type ScratchpadNote } from './scratchpad-store';
import type { CallSecrets } from '../secrets/sealed-args';
import { runTurn, type TurnEnv, type TurnResult } from './turn';
import { checkedImages } from './chat-image-rows';
import { editMessage, postMessage, regenerate, retryTurn, type MessageHost } from './message-actions';
import { buildTurnEnv, padSessionOf, type TurnEnvSource } from './turn-env';
import {
  deliverResult,
  resumeAll,
  resumeSession,
  rerunTool,
  runPersonWrite,
  runPrompt,
  type TurnHost,
} from './outside-turns';
import { projectInstructions, type ProjectInstructions } from './project-instructions';

export type { ModelCatalogPort, SessionDeps } from './session-deps';
import type { SessionDeps } from './session-deps';

interface ActiveTurn {
  controller: AbortController;
  done: Promise<TurnResult>;
}

export class SessionManager {
  readonly store: SessionStore;
  private readonly active = new Map<number, ActiveTurn>();
  private readonly subAgents: SubAgentRunner;
  /** What a turn's environment is built from (turn-env.ts). */
  private readonly envSource: TurnEnvSource;
  /** What the person's messages and their Edit, Regenerate and Retry act through (message-actions.ts). */
  private readonly messageHost: MessageHost;
  /** What the turns that start without a message act through (outside-turns.ts). */
  private readonly turnHost: TurnHost;

  /** Set by `stopAll` (app exit): nothing delivered by itself starts a turn any more. */
  private closing = false;

  constructor(private readonly deps: SessionDeps) {
    this.store = new SessionStore(deps.db);
    this.subAgents = new SubAgentRunner({
      model: deps.model,
      store: this.store,
      stacks: deps.stacks,
      agents: deps.agents,
      toolSets: deps.toolSets,
      resolveModel: (arg) => deps.models.selectModel(arg),
    });
    this.envSource = {
      deps,
      store: this.store,
      subAgents: this.subAgents,
      session: (id) => this.session(id),
      runContext: (id) => this.runContext(id),
      workingDir: (id) => this.workingDir(id),
      emitter: (id) => this.emitter(id),
    };
    this.messageHost = {
      store: this.store,
      tools: deps.tools,
      pendingOf: deps.pendingOf,
      isRunning: (id) => this.isRunning(id),
      emitter: (id) => this.emitter(id),
      startTurn: (id) => this.startTurn(id, (env) => runTurn(env)),
      history: (id, limit) => this.history(id, Number.MAX_SAFE_INTEGER, limit).messages,
    };
    this.turnHost = {
      store: this.store,
      tools: deps.tools,
      session: (id) => this.session(id),
      isRunning: (id) => this.isRunning(id),
      emitter: (id) => this.emitter(id),
      startTurn: (id, body) => this.startTurn(id, body),
      settle: (id) => this.settle(id),
      closing: () => this.closing,
    };
  }

  /**
   * The session's events: each body is a new object made for the emit, so it gets its session's id as it is, not in a
   * copy (a spread of the many shapes of chat events is the engine's slow path, on every event of a tool call).
   */
  private emitter(sessionId: number) {
    return (body: ChatEventBody) => {
      (body as { session_id?: number }).session_id = sessionId;
      this.deps.events.emit('chat', body as never);
    };
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
      pinned_at: s.pinned_at,
    }));
  }

  history(
    sessionId: number,
    beforeId = Number.MAX_SAFE_INTEGER,
    limit = 200,
  ): { messages: HistoryMessage[]; hasMore: boolean; running: boolean } {
    this.session(sessionId);
    const page = this.store.page(sessionId, beforeId, limit);
    const first = page.messages[0]?.id ?? 0;
    const images = this.store.images.listed(sessionId, first, page.messages.at(-1)?.id ?? -1);
    const messages = historyMessages(
      page.messages,
      page.tools,
      this.deps.tools,
      this.isRunning(sessionId),
      this.deps.pendingOf,
      images,
    );
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

  /** What the session's AGENTS.md gives the model now (project-instructions.ts), for the chat bar. */
  instructions(sessionId: number): ProjectInstructions | null {
    const { agent_id: agentId, source } = this.session(sessionId);
    const workingDir = this.workingDir(sessionId);
    const { gate, tools, dataDir } = this.deps;
    return projectInstructions({
      gate,
      tools,
      sessionId,
      agentId,
      source,
      runContext: this.runContext(sessionId),
      workingDir,
      workspaceDir: workingDir,
      protectedRoots: [dataDir],
      defaultWorkspaceDir: this.deps.workspaceDir,
    });
  }

  /** The absolute form of a usable working directory, or a BridgeError saying why it is not one (working-directory.ts). */
  checkWorkingDirectory(path: string, base: string = this.deps.workspaceDir): string {
    return usableWorkingDirectory(path, base, this.deps);
  }

  /** The permission group the session's next calls are judged by (the caller checks that it exists). */
  setSecurityGroup(sessionId: number, groupId: string): void {
    this.store.setRunContext(sessionId, { ...this.runContext(sessionId), security_group: groupId });
  }

  /**
   * Persist + echo first; then a slash command, a queued message (turn running), or a new turn. Images are checked
   * before anything is written, and stored with the message (docs/chat-ui.md "Images in a message").
   */
  send(
    sessionId: number,
    content: string,
    uploads: readonly { name: string; data: string }[] = [],
  ): { messageId: number | null } {
    this.session(sessionId);
    const images = checkedImages(uploads);
    if (isSlashCommand(content)) {
      if (images.length) throw new BridgeError('bad_request', 'A command takes no images: send them in a message.');
      const { command, reply } = runSlashCommand(content, this.slashHooks(sessionId));
      this.emitter(sessionId)({ type: 'command_reply', command, content: reply });
      return { messageId: null };
    }
    return { messageId: postMessage(this.messageHost, sessionId, content, images) };
  }

  /** Edit, Regenerate, Retry / Continue (message-actions.ts; docs/chat-ui.md). */
  editMessage(sessionId: number, messageId: number, content: string): { messageId: number | null } {
    this.session(sessionId);
    return { messageId: editMessage(this.messageHost, sessionId, messageId, content) };
  }

  regenerate(sessionId: number): void {
    this.session(sessionId);
    regenerate(this.messageHost, sessionId);
  }

  retry(sessionId: number): void {
    this.session(sessionId);
    retryTurn(this.messageHost, sessionId);
  }

  /** A background run's prompt; resolves with how its turn ended (outside-turns.ts, as the four below). */
  runPrompt(sessionId: number, content: string): Promise<TurnResult> {
    return runPrompt(this.turnHost, sessionId, content);
  }

  deliverResult(sessionId: number, toolName: string, result: string): Promise<void> {
    return deliverResult(this.turnHost, sessionId, toolName, result);
  }

  stop(sessionId: number): boolean {
    const turn = this.active.get(sessionId);
    if (!turn) return false;
    turn.controller.abort();
    this.deps.gate.cancelForSession(sessionId);
    this.store.dropQueued(sessionId);
    return true;
  }

  /**
   * Deletes a chat (docs/chat-ui.md "Sessions"): refused while its turn runs, since the turn would go on writing
   * into rows that are gone; a request still waiting in the Inbox (asked again after a restart) is withdrawn first.
   */
  deleteSession(sessionId: number): void {
    const row = this.session(sessionId);
    if (!row.is_interactive)
      throw new BridgeError(
        'bad_request',
        'Only a chat can be deleted; the runs of a scheduled job are deleted with their history.',
      );
    if (this.isRunning(sessionId))
      throw new BridgeError('busy', 'A turn is running in this chat: stop it first, then delete the chat.');
    this.deps.gate.cancelForSession(sessionId);
    const emit = this.emitter(sessionId);
    if (this.store.deleteChat(sessionId)) emit({ type: 'session_deleted' });
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

  rerunTool(sessionId: number, toolCallId: string): boolean {
    return rerunTool(this.turnHost, sessionId, toolCallId);
  }

  runPersonWrite(sessionId: number, messageId: number, path: string, content: string): string {
    return runPersonWrite(this.turnHost, sessionId, messageId, path, content);
  }

  resumeAll(): void {
    resumeAll(this.turnHost);
  }

  resumeSession(sessionId: number): boolean {
    return resumeSession(this.turnHost, sessionId);
  }

  private startTurn(sessionId: number, body: (env: TurnEnv) => Promise<TurnResult>): Promise<TurnResult> {
    const controller = new AbortController();
    const emit = this.emitter(sessionId);
    const env = buildTurnEnv(this.envSource, sessionId, controller.signal);
    emit({ type: 'turn_running', running: true });
    const done = (async (): Promise<TurnResult> => {
      try {
        return await body(env);
      } catch (error) {
        this.deps.log('turn failed', { sessionId, error: String(error) });
        emit({
          type: 'error',
          message: isDiskFull(error) ? DISK_FULL_TURN_TEXT : `The turn failed: ${(error as Error).message}`,
        });
        return 'failed';
      }
    })().then((result) => {
      if (result === 'cancelled') emit({ type: 'cancelled' });
      this.active.delete(sessionId);
      emit({ type: 'turn_running', running: false });
      return result;
    });
    this.active.set(sessionId, { controller, done });
    return done;
  }

  /** The sub-agent card: the child stack a call started, with its messages (sub-agent-view.ts). */
  subAgent(sessionId: number, parentToolCallId: string): { stack: SubAgentStack | null; messages: HistoryMessage[] } {
    this.session(sessionId);
    return subAgentView(
      { ...this.deps, store: this.store, isRunning: this.isRunning(sessionId) },
      sessionId,
      parentToolCallId,
    );
  }

  scratchpad(sessionId: number): ScratchpadNote[] {
    this.session(sessionId);
    return readScratchpad(this.deps.db, padSessionOf(this.deps.db, sessionId));
  }

  /** The person edits the scratchpad from the side panel; the agents see it from their next round. */
  setScratchpadNote(sessionId: number, key: string, value: string): ScratchpadNote[] {
    this.session(sessionId);
    const pad = padSessionOf(this.deps.db, sessionId);
    writeScratchpadNote(this.deps.db, pad, key, value);
    this.emitter(pad)({ type: 'scratchpad_changed' });
    return readScratchpad(this.deps.db, pad);
  }

  private slashHooks(sessionId: number): SlashHooks {
    return sessionSlashHooks(sessionId, {
      store: this.store,
      deps: this.deps,
      session: (id) => this.session(id),
      workingDir: (id) => this.workingDir(id),
      createSession: () => this.createSession(),
      emit: (id, body) => this.emitter(id)(body),
      stop: (id) => this.stop(id),
      setModel: (id, arg) => this.setModel(id, arg),
      isRunning: (id) => this.isRunning(id),
      startTurn: (id, turn) => this.startTurn(id, turn),
    });
  }
}

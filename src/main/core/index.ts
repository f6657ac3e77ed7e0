/**
 * The composition root of the core (docs/architecture.md "Layers"): it builds every service from the config and hands
 * them down. Plain Node: it never imports `electron`, so both shapes and every test use exactly this.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentRegistry } from './agents/agent-registry';
import { StackStore } from './agents/stack-store';
import { configGroupSource } from './agents/tool-groups';
import { BridgeError } from '../../shared/contract/define';
import { createApprovalServices, type ApprovalServices } from './approval/index';
import { createCoreHandlers } from './bridge/core-handlers';
import type { BridgeHandlers } from './bridge/handlers';
import type { CoreConfig } from './config';
import { dbFile } from './config';
import { closeDatabase, openDatabase, type Db } from './db/database';
import { startWalKeeper } from './db/wal-keeper';
import { EventBus } from './events';
import { createLlmServices, type LlmServices } from './llm/services';
import { ShellAnalyzer } from './approval/shell';
import { HOME_CREDENTIALS, SYSTEM_CREDENTIALS } from './approval/guards';
import { listMcpItems } from './mcp/activation';
import { createMcpServices, type McpServices } from './mcp/index';
import { createKeyFileCipher, SecretStore, type SecretCipher } from './secrets/index';
import { callSecrets, createSealedArgs } from './secrets/sealed-args';
import { BUILTIN_PLUGINS, listPluginItems, PluginManager, PluginStore, type PluginDefinition } from './plugins/index';
import { ProcessRegistry } from './processes/process-registry';
import { Sandbox } from './sandbox/index';
import { ChatSearch } from './session/chat-search';
import { SessionManager } from './session/session-manager';
import type { ModelPort } from './session/ports';
import { AppSettingsStore } from './settings/app-settings';
import { createPluginAndSecretTools } from './tools/config/index';
import { GrantStore, ToolGroupRegistry } from './agents/group-registry';
import { SessionStore } from './session/session-store';
import { createSchedulerServices, type SchedulerServices } from './scheduler/index';
import { JobStore } from './scheduler/job-store';
import { recoverInterruptedRuns, type Timers } from './scheduler/scheduler';
import { createAgentTools, ItemListers } from './tools/agents/index';
import { createDeleteCronJobTool, cronLister, cronToggler } from './tools/agents/cron-jobs';
import { ToolDiscovery } from './db/tool-discovery';
import { createBuiltinTools, createToolRegistry, type ToolRegistry } from './tools/index';
import type { Tool } from './tools/tool';
import { createMcpConfigTools, toolsWithMcp } from './tools/mcp/index';
import { outlinePool } from './tools/outline/outline-pool';
import { sweepStaleTempFiles } from './disk/temp-sweep';
import { BlobStore } from './viewer/blob-store';
import { ViewerService } from './viewer/viewer-service';
import type { OpenWithSystemPort } from './viewer/system-open';
import { startWarmUp, WARM_UP_DELAY_MS } from './warm-up';

export interface Core {
  readonly config: CoreConfig;
  readonly db: Db;
  readonly events: EventBus;
  readonly approval: ApprovalServices;
  readonly secrets: SecretStore;
  readonly llm: LlmServices;
  readonly tools: ToolRegistry;
  readonly plugins: PluginManager;
  readonly sessions: SessionManager;
  readonly mcp: McpServices;
  /** The OS sandbox approved commands run in (docs/sandbox.md): its `status()` says whether it can start here. */
  readonly sandbox: Sandbox;
  /** Lazy tool groups for `activate_tools` (config, one per MCP server); sources register here (docs/agents.md). */
  readonly toolGroups: ToolGroupRegistry;
  /** Listers of `list_items` types other than agents (docs/agents.md "list_items"). */
  readonly itemListers: ItemListers;
  readonly agents: AgentRegistry;
  /** Async tasks and scheduled jobs (docs/scheduler.md). */
  readonly scheduler: SchedulerServices;
  readonly handlers: BridgeHandlers;
  /** The viewer's handles and file routes (both shapes serve `/viewer/file/<handle>` through it). */
  readonly viewer: ViewerService;
  /** Starts background work (resume of interrupted turns) once the shell can forward events. */
  start(): void;
  dispose(): Promise<void>;
}

/** What only the shell can do, handed to the core. */
export interface CoreHooks {
  /** `restart` tool: desktop relaunches the app, the web shape re-executes itself (docs/architecture.md). */
  requestRestart?: () => void;
  /** Seals secrets at rest; the desktop shell passes a safeStorage cipher, else a user-only key file (docs/plugins.md). */
  secretCipher?: SecretCipher;
  /** The scheduler's clock and timers; tests drive a fake one (docs/scheduler.md "The tick"). Default: the real ones. */
  schedulerClock?: { now(): number; timers: Timers };
  /** Opens a file with the system's app for it: the desktop passes `shell.openPath`; absent = not offered (docs/viewer.md). */
  openWithSystem?: OpenWithSystemPort;
  /** How often the idle checkpoint looks at the WAL (db/wal-keeper.ts); tests make it short. */
  walIdleCheckMs?: number;
  /** Tools added to the built-in ones (tests: a tool in a file of its own; the app ships only the built-in list). */
  extraTools?: readonly Tool[];
  /** Plugins added to the shipped ones (tests: a plugin with tools; the app ships only BUILTIN_PLUGINS). */
  extraPlugins?: readonly PluginDefinition[];
  /** How long after `start()` the background warm-up begins; default WARM_UP_DELAY_MS. */
  warmUpDelayMs?: number;
}

export async function createCore(config: CoreConfig, hooks: CoreHooks = {}): Promise<Core> {
  // First, before the database blocks the main thread on the disk: the shell grammar's compile, which then runs on
  // V8's background threads meanwhile (docs/shell-analysis.md "Cold start").
  await ShellAnalyzer.prefetch();
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  mkdirSync(config.workspaceDir, { recursive: true });
  const startedAt = Date.now();
  const sweep = new AbortController();
  /** The background warm-up `start()` begins; stopped by `dispose` so it never reaches a closed database. */
  const warmUp = new AbortController();
  const db = openDatabase({ file: dbFile(config.dataDir), nativeBinding: config.sqliteNativeBinding });
  const walKeeper = startWalKeeper(db, dbFile(config.dataDir), { intervalMs: hooks.walIdleCheckMs });
  const events = new EventBus();
  const log = (message: string, fields?: Record<string, unknown>) => console.error(`[core] ${message}`, fields ?? '');
  const requestRestart = hooks.requestRestart ?? (() => log('restart requested, but this shell cannot restart'));
  const cipher = hooks.secretCipher ?? createKeyFileCipher(config.dataDir);
  const secrets = new SecretStore(db, cipher);
  const processes = new ProcessRegistry(db);
  const leftovers = processes.reapLeftovers();
  if (leftovers.killed.length || leftovers.reported.length)
    log('ended commands left over from the previous run', { ...leftovers });
  const agents = new AgentRegistry(config.agentsDir ?? resolve('agents'), log);
  const itemListers = new ItemListers();
  // Approved commands run confined (docs/sandbox.md); the credential stores it hides are the guards' own list.
  // While it cannot start, commands run outside it only when the person chose so in Settings → Sandbox.
  const sandbox = new Sandbox({
    credentialStores: { home: HOME_CREDENTIALS, system: SYSTEM_CREDENTIALS },
    unconfinedWhenUnavailable: () => settings.get().sandboxUnconfinedWhenUnavailable,
  });
  const tools = createToolRegistry([
    ...createBuiltinTools({ requestRestart, secretValues: () => secrets.allValues(), processes, sandbox }),
    ...createAgentTools({ agents, listers: itemListers }),
    ...(hooks.extraTools ?? []),
  ]);
  const plugins = new PluginManager(
    [...BUILTIN_PLUGINS, ...(hooks.extraPlugins ?? [])],
    new PluginStore(db, secrets),
    log,
  );
  for (const tool of createPluginAndSecretTools({ plugins, secrets })) tools.register(tool);
  const stopPluginTools = plugins.syncToolsInto(tools);
  const stacks = new StackStore(db);
  const discovery = new ToolDiscovery(db);
  const mcp = createMcpServices({
    db,
    secrets,
    emit: (event) => events.emit('mcp', event),
    cwd: config.workspaceDir,
    processes,
    // A server the model registered runs in the sandbox: the workspace writable, network allowed (it usually needs it).
    sandbox: (argv) =>
      sandbox.launch(
        { mode: 'sandboxed', network: true },
        { workingDir: config.workspaceDir, workspaceDir: config.workspaceDir, dataDirs: [config.dataDir] },
        config.workspaceDir,
        argv,
      ),
    log,
  });
  const mcpConfig = createMcpConfigTools(mcp, plugins);
  for (const tool of mcpConfig.tools) tools.register(tool);
  const toolGroups = new ToolGroupRegistry();
  toolGroups.register(configGroupSource(tools));
  toolGroups.register(mcp.groups);
  // list_items: the model reads what exists and its state, never a server's env, headers or a plugin's config.
  itemListers.register('mcp', () => listMcpItems(mcp.repo, mcp.manager));
  itemListers.register('plugins', () => listPluginItems(plugins));
  // The one writer of the sessions' rows; the approval service flips a call's row to `pending` through it.
  const sessionStore = new SessionStore(db);
  const approval = await createApprovalServices({
    db,
    toolRows: sessionStore,
    workspaceDir: config.workspaceDir,
    dataDir: config.dataDir,
    dbFile: dbFile(config.dataDir),
    categoryOf: (name) => tools.categoryOf(name),
    sandboxLine: (workingDir) => sandbox.cardLine(workingDir),
    traitsOf: (name) => tools.traitsOf(name),
    log,
    shellGrammar: 'background', // loaded by start(), once the shell can serve (docs/shell-analysis.md "Cold start")
    emitSession: (sessionId, event) => events.emit('chat', { ...event, session_id: sessionId }),
    emitInbox: (event) => events.emit('inbox', event),
  });
  // A tool's default decision, written once as a rule the person can change (docs/tools.md "One tool shape").
  approval.rules.seedToolDefaults(tools.allTraits());
  // Before pending calls come back into the Inbox: a sub-agent cut short by a crash is closed, its calls ended.
  stacks.closeInterrupted((note) => sessionStore.failUnfinishedStackTools(note));
  // And a background run a crash or quit interrupted: ended here (never resumed or re-asked), re-run once by start().
  const clock = hooks.schedulerClock;
  const schedulerNow = clock ? () => clock.now() : undefined;
  const jobs = new JobStore(db, schedulerNow);
  const reRuns = recoverInterruptedRuns(jobs, sessionStore);
  // A shell command waiting for the person since the last run gets its card's bypass choices from the grammar's reading.
  if (sessionStore.activeTools().some((row) => row.status === 'pending' && tools.traitsOf(row.name)?.commandKey))
    await approval.shell.whenLoaded();
  approval.pending.reRegisterPendingFromDb();
  const llm = createLlmServices({ db, secrets });
  // Secret arguments of calls, sealed by the app's cipher at the paths each tool declares (docs/plugins.md).
  const sealedCalls = callSecrets(createSealedArgs(cipher), (name) => tools.secretPathsOf(name));
  // Write calls' before/after images (docs/viewer.md "Diff and revert"), under the viewer's read policy.
  const readPolicyOf = (workingDir: string) => ({
    workingDir,
    dataDir: config.dataDir,
    workspaceDir: config.workspaceDir,
  });
  const blobs = new BlobStore(db, config.dataDir, readPolicyOf);
  // A round's request is where the turn waits anyway: the log is copied into the database then, not inside a tool
  // call's commit (db/wal-keeper.ts, `checkpointSoon`).
  const modelPort: ModelPort = {
    streamRound: (request) => {
      walKeeper.checkpointSoon();
      return llm.client.streamRound(request);
    },
  };
  const sessions = new SessionManager({
    fileImages: blobs,
    db,
    events,
    tools: toolsWithMcp(tools, { manager: mcp.manager, emit: (event) => events.emit('mcp', event) }),
    gate: approval.port,
    model: modelPort,
    models: llm.catalog,
    workspaceDir: config.workspaceDir,
    dataDir: config.dataDir,
    agents,
    stacks,
    toolSets: {
      tools,
      groups: toolGroups,
      grants: new GrantStore(db),
      isHidden: (group, name) => approval.port.isHidden(group, name),
    },
    pendingOf: (toolCallId) => {
      const waiting = approval.pending.list();
      const question = waiting.clarifications.find((c) => c.tool_call_id === toolCallId);
      if (question) return { request_id: question.request_id, args_hash: '', old_content: null, new_content: null };
      return waiting.approvals.find((a) => a.tool_call_id === toolCallId) ?? null;
    },
    callSecrets: sealedCalls,
    requestRestart,
    log,
    onToolsOffered: (offered) => discovery.observe(offered, (name) => tools.categoryOf(name)),
    newSessionContext: () => settings.newSessionContext(),
    personInstructions: () => settings.instructions(),
    background: () => scheduler.schedules,
  });
  // The scheduler's tools reach it lazily: it is built from the sessions, which are built from the tools.
  const schedulesOf = () => scheduler.schedules;
  tools.register(createDeleteCronJobTool(schedulesOf));
  mcpConfig.togglers.register('cron', cronToggler(schedulesOf));
  itemListers.register('cron', cronLister(schedulesOf));
  const scheduler = createSchedulerServices({
    db,
    jobs,
    sessionRows: sessionStore,
    sessions,
    agents,
    log,
    now: schedulerNow,
    timers: clock?.timers,
    onChanged: () => events.emit('schedules', { type: 'changed' }),
    resolveModel: (arg) => llm.catalog.selectModel(arg),
    waitingOn: (sessionId) => {
      const waiting = approval.pending.list();
      return (
        waiting.approvals.filter((a) => a.session_id === sessionId).length +
        waiting.clarifications.filter((c) => c.session_id === sessionId).length
      );
    },
  });
  const settings = new AppSettingsStore(db, {
    workingDirectory: (path) => sessions.checkWorkingDirectory(path),
    group: (id) => {
      if (!approval.rules.getGroup(id)) throw new BridgeError('not_found', `There is no permission group "${id}".`);
    },
    groupExists: (id) => approval.rules.getGroup(id) !== null,
  });

  const viewer = new ViewerService({
    onFileChanged: (handle, path) => events.emit('viewer', { type: 'file_changed', handle, path }),
    openWithSystem: hooks.openWithSystem,
    dataDir: config.dataDir,
    workspaceDir: config.workspaceDir,
    workingDirOf: (sessionId) => {
      if (sessionId === undefined) return config.workspaceDir;
      try {
        return sessions.workingDir(sessionId);
      } catch {
        return config.workspaceDir; // an unknown session: the workspace, the narrowest sensible default
      }
    },
  });

  // Its worker thread and read-only connection start with the first search (docs/ui.md "Searching chats").
  const chatSearch = new ChatSearch(dbFile(config.dataDir), config.sqliteNativeBinding);
  const handlers = createCoreHandlers({
    config,
    db,
    events,
    settings,
    approval,
    tools,
    discovery,
    mcp,
    sandbox,
    scheduler,
    agents,
    llm,
    plugins,
    secrets,
    sealedCalls,
    sessions,
    chatSearch,
    viewer,
    blobs,
    readPolicyOf,
  });
  // The first screen's data (its session list) answered: MCP servers may spawn now (docs/mcp.md "Lifecycle").
  let firstScreenAnswered = () => {};
  const firstScreenServed = new Promise<void>((resolve) => (firstScreenAnswered = resolve));
  const listSessions = handlers['chat:listSessions'];
  handlers['chat:listSessions'] = (request) => {
    const answer = listSessions(request);
    firstScreenAnswered();
    return answer;
  };
  // One turn of the event loop: the grammar runtime's compile, run on V8's threads while the core was built, is
  // delivered in it (its last step is a task on this thread), so `start()` can start the runtime at once
  // (docs/shell-analysis.md "Cold start"). The shells reach `start()` after turns of their own anyway.
  await new Promise<void>((resolve) => setImmediate(resolve));

  return {
    config,
    db,
    events,
    approval,
    secrets,
    llm,
    tools,
    plugins,
    sessions,
    mcp,
    sandbox,
    toolGroups,
    itemListers,
    agents,
    scheduler,
    handlers,
    viewer,
    start() {
      startWarmUp({
        gate: approval.gate,
        shell: approval.shell,
        sandbox,
        llm,
        workspaceDir: config.workspaceDir,
        delayMs: hooks.warmUpDelayMs ?? WARM_UP_DELAY_MS,
        signal: warmUp.signal,
        log,
      });
      try {
        blobs.prune(); // the retention and size settings of the before/after images
      } catch (error) {
        log('pruning the blob store failed', { error: String(error) });
      }
      // In the background, after the first screen's data is answered (or the warm-up's delay, when no window asks):
      // launch never waits for a server, and the servers' own start does not compete with the first window's.
      const noWindow = setTimeout(firstScreenAnswered, hooks.warmUpDelayMs ?? WARM_UP_DELAY_MS);
      noWindow.unref();
      warmUp.signal.addEventListener('abort', () => clearTimeout(noWindow), { once: true });
      mcp.manager.startAll(firstScreenServed);
      // Temp files of a write_file the previous run died in (disk/temp-sweep.ts); in the background.
      void sweepStaleTempFiles(config.workspaceDir, { olderThanMs: startedAt, signal: sweep.signal }).then((r) => {
        if (r.removed.length) log('removed temporary files left by an interrupted write', { files: r.removed });
      });
      sessions.resumeAll();
      scheduler.scheduler.start(reRuns);
      // An Inbox decision for a call no turn waits on (its turn was stopped): the session picks it up now.
      approval.pending.onDidResolveWithoutWaiter(({ sessionId }) => void sessions.resumeSession(sessionId));
    },
    async dispose() {
      warmUp.abort();
      await viewer.disposeWatcher();
      stopPluginTools();
      sweep.abort();
      scheduler.dispose(); // first: runs stopped by the quit stay `running`, so the next start re-runs them
      await sessions.stopAll();
      mcp.elicitations.cancelAll();
      await mcp.manager.dispose(); // every stdio server's process group is killed
      discovery.flush();
      await chatSearch.close(); // its read-only connection closes first: the core's is the database's last
      walKeeper.dispose();
      closeDatabase(db);
      await outlinePool().close(); // parser threads; they would also end on their own when idle
    },
  };
}

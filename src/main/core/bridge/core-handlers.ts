/**
 * The bridge's handlers, one per contract call, joined from the domains' (the other files of bridge/) over the core's
 * services, and checked against the contract before anything is served (I1, handlers.ts; docs/architecture.md
 * "Layers"). The services the handlers alone use (the tool catalog, the viewer's file images, the rewind) are built
 * here. Check ids (I1) are listed in docs/security-checks.md.
 */
import type { AgentRegistry } from '../agents/agent-registry';
import type { CoreConfig } from '../config';
import type { Db } from '../db/database';
import type { ToolDiscovery } from '../db/tool-discovery';
import type { EventBus } from '../events';
import type { LlmServices } from '../llm/services';
import type { McpServices } from '../mcp/index';
import type { PluginManager } from '../plugins/index';
import { RewindService } from '../rewind/rewind-service';
import type { Sandbox } from '../sandbox/index';
import type { SchedulerServices } from '../scheduler/index';
import type { SecretStore } from '../secrets/index';
import type { CallSecrets } from '../secrets/sealed-args';
import type { ChatSearch } from '../session/chat-search';
import type { SessionManager } from '../session/session-manager';
import { syntheticToolSpecs } from '../session/synthetic-tools';
import type { AppSettingsStore } from '../settings/app-settings';
import { ToolCatalog, type ToolRegistry } from '../tools/index';
import type { BlobStore } from '../viewer/blob-store';
import { FileImages } from '../viewer/file-images';
import type { ReadPolicyContext } from '../viewer/read-policy';
import type { ViewerService } from '../viewer/viewer-service';
import { createAppHandlers } from './app-handlers';
import { type ApprovalHandlerDeps, createApprovalHandlers } from './approval-handlers';
import { createChatHandlers } from './chat-handlers';
import { assertHandlersMatchContract, type BridgeHandlers } from './handlers';
import { createMcpHandlers } from './mcp-handlers';
import { createPluginHandlers } from './plugins-handlers';
import { createProviderHandlers } from './providers-handlers';
import { createRevealHandlers } from './reveal-handlers';
import { createRewindHandlers } from './rewind-handlers';
import { createSandboxHandlers } from './sandbox-handlers';
import { createSchedulesHandlers } from './schedules-handlers';
import { createViewerHandlers } from './viewer-handlers';

/** What the handlers are built over: the core's services (core/index.ts builds them). */
export interface CoreHandlerDeps {
  config: CoreConfig;
  db: Db;
  events: EventBus;
  settings: AppSettingsStore;
  approval: ApprovalHandlerDeps['approval'];
  tools: ToolRegistry;
  discovery: ToolDiscovery;
  mcp: McpServices;
  sandbox: Sandbox;
  scheduler: SchedulerServices;
  agents: AgentRegistry;
  llm: LlmServices;
  plugins: PluginManager;
  secrets: SecretStore;
  /** Secret arguments of calls, sealed at the paths each tool declares (docs/plugins.md). */
  sealedCalls: CallSecrets;
  sessions: SessionManager;
  chatSearch: ChatSearch;
  viewer: ViewerService;
  blobs: BlobStore;
  /** The viewer's read policy for a working directory (docs/viewer.md). */
  readPolicyOf: (workingDir: string) => ReadPolicyContext;
}

export function createCoreHandlers(d: CoreHandlerDeps): BridgeHandlers {
  const handlers: BridgeHandlers = {
    ...createAppHandlers(d.config, d.events, d.settings),
    ...createApprovalHandlers({
      approval: d.approval,
      catalog: new ToolCatalog(d.tools, {
        discovery: d.discovery,
        sessionTools: syntheticToolSpecs,
        mcpTools: () => d.mcp.manager.allTools(),
      }),
      db: d.db,
      sessions: d.sessions,
      categoryOf: (name) => d.tools.categoryOf(name),
      tools: d.tools,
    }),
    ...createMcpHandlers(d.mcp),
    ...createSandboxHandlers(d.sandbox),
    ...createSchedulesHandlers({
      scheduler: d.scheduler,
      agents: d.agents,
      rules: d.approval.rules,
      workspaceDir: d.config.workspaceDir,
    }),
    ...createProviderHandlers({ providers: d.llm.providers, health: d.llm.health }),
    ...createPluginHandlers({ plugins: d.plugins, secrets: d.secrets }),
    ...createRevealHandlers({ pending: d.approval.pending, secrets: d.sealedCalls }),
    ...createChatHandlers(d.sessions, d.events, d.chatSearch),
    ...createViewerHandlers(
      d.viewer,
      new FileImages(
        d.blobs,
        {
          getTool: (toolCallId) => d.sessions.store.getTool(toolCallId),
          workingDir: (sessionId) => d.sessions.workingDir(sessionId),
          runPersonWrite: (sessionId, messageId, path, content) =>
            d.sessions.runPersonWrite(sessionId, messageId, path, content),
        },
        d.readPolicyOf,
      ),
    ),
    ...createRewindHandlers(
      new RewindService({
        db: d.db,
        blobs: d.blobs,
        store: d.sessions.store,
        events: d.events,
        policyOf: d.readPolicyOf,
        workingDir: (sessionId) => d.sessions.workingDir(sessionId),
        isRunning: (sessionId) => d.sessions.isRunning(sessionId),
        kindOf: (name) => d.tools.kindOf(name),
        label: (name, args) => d.tools.describeCall(name, args, 'short'),
      }),
    ),
  };
  assertHandlersMatchContract(handlers);
  return handlers;
}

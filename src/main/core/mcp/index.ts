/**
 * The MCP domain's composition (docs/mcp.md): repository, tool trust, elicitation broker and manager over one
 * database, plus the activation-group source the session loop reads (one group per server) and the operations
 * Settings, the bridge and the Config tools share (`save`, `remove`, `setEnabled`, `trust`), so that a server is
 * added, started, stopped and forgotten one way whoever asks.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpCatalogEntryView, McpEvent, McpServerView } from '../../../shared/contract/mcp';
import type { Db } from '../db/database';
import type { ToolGroupSource } from '../agents/group-registry';
import { CatalogError, catalogServerInput, catalogView, type CatalogAnswers, type CatalogContext } from './catalog';
import { ElicitationBroker } from './elicitation';
import { loginShellPath } from './login-path';
import { McpManager, type McpManagerDeps } from './manager';
import { McpServerRepository, type CredentialStore } from './server-repository';
import type { ProcessRecorder } from './stdio-transport';
import { ToolTrustStore } from './tool-trust';

export interface McpDeps {
  db: Db;
  secrets: CredentialStore & { allValues?: () => string[] };
  emit: (event: McpEvent) => void;
  cwd: string;
  processes?: ProcessRecorder;
  /** How a stdio server the model registered starts inside the sandbox (docs/sandbox.md "MCP servers"). */
  sandbox?: McpManagerDeps['sandbox'];
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** Test seams: timeouts and the stdio base environment. */
  overrides?: Partial<Pick<McpManagerDeps, 'baseEnv' | 'startTimeoutMs' | 'callTimeoutMs'>> & {
    elicitationDeadlineMs?: number;
    /** Where the catalog looks for npm packages installed with the app (default: beside this module). */
    catalogAppDir?: string;
  };
}

export interface McpServices {
  repo: McpServerRepository;
  manager: McpManager;
  elicitations: ElicitationBroker;
  groups: ToolGroupSource;
  list(): McpServerView[];
  view(name: string): McpServerView;
  /** Adds or replaces a server; the person's config is trusted and (re)started, the model's waits for trust. */
  save(input: unknown, by: 'user' | 'model'): Promise<McpServerView>;
  remove(name: string): Promise<boolean>;
  setEnabled(name: string, enabled: boolean): Promise<McpServerView>;
  /** The person's sandbox switch of a stdio server; a running server restarts to take it. */
  setSandboxed(name: string, sandboxed: boolean): Promise<McpServerView>;
  trust(name: string): Promise<McpServerView>;
  /** The catalog of well-known servers (docs/mcp.md "Catalog"). */
  catalog(): Promise<McpCatalogEntryView[]>;
  /** Adds a catalog server as the person's (trusted) and starts it; a name in use is refused, not replaced. */
  addFromCatalog(id: string, answers: CatalogAnswers): Promise<McpServerView>;
}

export function createMcpServices(deps: McpDeps): McpServices {
  const repo = new McpServerRepository(deps.db, deps.secrets);
  const trust = new ToolTrustStore(deps.db);
  const elicitations = new ElicitationBroker(deps.emit, deps.overrides?.elicitationDeadlineMs);
  const manager = new McpManager({
    repo,
    trust,
    emit: deps.emit,
    elicit: (request, signal) => elicitations.ask(request, signal),
    cwd: deps.cwd,
    processes: deps.processes,
    sandbox: deps.sandbox,
    secretValues: deps.secrets.allValues ? () => deps.secrets.allValues!() : undefined,
    log: deps.log,
    ...deps.overrides,
  });
  const view = (name: string): McpServerView => {
    const server = repo.get(name);
    if (!server) throw new Error(`There is no MCP server named "${name}".`);
    return manager.view(server);
  };
  /** Starts in the background; the view returned says `starting`. */
  const kick = (name: string) => void manager.open(name).catch(() => undefined);
  const catalogContext = async (): Promise<CatalogContext> => ({
    workspaceDir: deps.cwd,
    appDir: deps.overrides?.catalogAppDir ?? dirname(fileURLToPath(import.meta.url)),
    pathDirs: (await loginShellPath()).split(':').filter(Boolean),
    // Under Electron its binary is no Node (and its run-as-node fuse is off): the `node` on the PATH runs the script.
    nodeCommand: process.versions.electron ? 'node' : process.execPath,
  });
  const save = async (input: unknown, by: 'user' | 'model') => {
    const server = repo.upsert(input, by);
    await manager.stop(server.name); // a replaced config never keeps the old process
    if (server.trusted && server.enabled) kick(server.name);
    return view(server.name);
  };
  const groups: ToolGroupSource = {
    list: () => repo.list().map((s) => ({ name: s.name, summary: manager.summary(s.name) })),
    has: (name) => repo.get(name) !== null,
    specs: (name) => manager.toolSpecs(name),
  };
  return {
    repo,
    manager,
    elicitations,
    groups,
    list: () => repo.list().map((s) => manager.view(s)),
    view,
    save,
    async catalog() {
      return catalogView(await catalogContext(), new Set(repo.list().map((s) => s.name)));
    },
    async addFromCatalog(id, answers) {
      const input = catalogServerInput(id, answers, await catalogContext());
      if (repo.get(input.name))
        throw new CatalogError(`A server named "${input.name}" exists already: give this one another name.`);
      return save(input, 'user');
    },
    async remove(name) {
      await manager.forget(name);
      return repo.delete(name);
    },
    async setEnabled(name, enabled) {
      if (!repo.setEnabled(name, enabled)) throw new Error(`There is no MCP server named "${name}".`);
      if (enabled) kick(name);
      else await manager.stop(name);
      return view(name);
    },
    async setSandboxed(name, sandboxed) {
      if (!repo.setSandboxed(name, sandboxed)) throw new Error(`There is no MCP server named "${name}".`);
      if (manager.hasConnection(name)) await manager.restart(name);
      return view(name);
    },
    async trust(name) {
      if (!repo.setTrusted(name)) throw new Error(`There is no MCP server named "${name}".`);
      kick(name);
      return view(name);
    },
  };
}

export { McpManager } from './manager';
export { ElicitationBroker } from './elicitation';
export { CatalogError } from './catalog';

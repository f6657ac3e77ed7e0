/**
 * The composition root of the core (CONVENTIONS §10): it builds every service from the config and hands them
 * down. Plain Node: it never imports `electron`, so both shapes and every test use exactly this.
 */
import { mkdirSync } from 'node:fs';
import { createApprovalServices, type ApprovalServices } from './approval/index';
import { createAppHandlers } from './bridge/app-handlers';
import { createApprovalHandlers } from './bridge/approval-handlers';
import { assertHandlersMatchContract, type BridgeHandlers } from './bridge/handlers';
import { createProviderHandlers } from './bridge/providers-handlers';
import type { CoreConfig } from './config';
import { dbFile } from './config';
import { closeDatabase, openDatabase, type Db } from './db/database';
import { EventBus } from './events';
import { createLlmServices, type LlmServices } from './llm/services';
import { createKeyFileCipher, SecretStore, type SecretCipher } from './secrets/index';

export interface Core {
  readonly config: CoreConfig;
  readonly db: Db;
  readonly events: EventBus;
  readonly approval: ApprovalServices;
  readonly secrets: SecretStore;
  readonly llm: LlmServices;
  readonly handlers: BridgeHandlers;
  /** Starts background work (resume of interrupted turns) once the shell can forward events. */
  start(): void;
  dispose(): Promise<void>;
}

/** What only the shell can do, handed to the core. */
export interface CoreHooks {
  /** `restart` tool: desktop relaunches the app, the web shape re-executes itself (SPEC.md §3.11). */
  requestRestart?: () => void;
  /** Seals secrets at rest; the desktop shell passes a safeStorage cipher, else a user-only key file (SPEC.md §3.13). */
  secretCipher?: SecretCipher;
}

export async function createCore(config: CoreConfig, hooks: CoreHooks = {}): Promise<Core> {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  mkdirSync(config.workspaceDir, { recursive: true });
  const db = openDatabase({ file: dbFile(config.dataDir), nativeBinding: config.sqliteNativeBinding });
  const events = new EventBus();
  const approval = await createApprovalServices({
    db, workspaceDir: config.workspaceDir, dataDir: config.dataDir, dbFile: dbFile(config.dataDir),
    emitSession: (sessionId, event) => events.emit('chat', { ...event, session_id: sessionId }),
    emitInbox: (event) => events.emit('inbox', event),
  });
  approval.pending.reRegisterPendingFromDb();
  const secrets = new SecretStore(db, hooks.secretCipher ?? createKeyFileCipher(config.dataDir));
  const llm = createLlmServices({ db, secrets });

  const handlers: BridgeHandlers = {
    ...createAppHandlers(config, events),
    ...createApprovalHandlers({ approval }),
    ...createProviderHandlers({ providers: llm.providers, health: llm.health }),
  };
  assertHandlersMatchContract(handlers);

  return {
    config,
    db,
    events,
    approval,
    secrets,
    llm,
    handlers,
    start() {},
    async dispose() {
      closeDatabase(db);
    },
  };
}

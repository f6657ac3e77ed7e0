/**
 * The composition root of the core (CONVENTIONS §10): it builds every service from the config and hands them
 * down. Plain Node: it never imports `electron`, so both shapes and every test use exactly this.
 */
import { mkdirSync } from 'node:fs';
import { createAppHandlers } from './bridge/app-handlers';
import { assertHandlersMatchContract, type BridgeHandlers } from './bridge/handlers';
import type { CoreConfig } from './config';
import { dbFile } from './config';
import { closeDatabase, openDatabase, type Db } from './db/database';
import { EventBus } from './events';

export interface Core {
  readonly config: CoreConfig;
  readonly db: Db;
  readonly events: EventBus;
  readonly handlers: BridgeHandlers;
  dispose(): Promise<void>;
}

export async function createCore(config: CoreConfig): Promise<Core> {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  mkdirSync(config.workspaceDir, { recursive: true });
  const db = openDatabase({ file: dbFile(config.dataDir), nativeBinding: config.sqliteNativeBinding });
  const events = new EventBus();

  const handlers: BridgeHandlers = {
    ...createAppHandlers(config, events),
  };
  assertHandlersMatchContract(handlers);

  return {
    config,
    db,
    events,
    handlers,
    async dispose() {
      closeDatabase(db);
    },
  };
}

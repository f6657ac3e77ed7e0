/**
 * Renderer stores against the real core, without a browser: a real core over SQLite in a temp folder, and
 * `window.skald` built from the contract with a transport that goes through the same parsed boundary the shells
 * use (dispatchCall). Install it before importing a store: the store's bridge module reads `window.skald` once.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSkaldApi, type SkaldApi } from '../../src/shared/contract/api';
import { BridgeError, type CallChannel, type EventFamily } from '../../src/shared/contract/index';
import { dispatchCall } from '../../src/main/core/bridge/dispatch';
import { createCore, type Core } from '../../src/main/core/index';
import { cleanupTempDirs, tempDir } from '../helpers/temp';

export interface RealBridge {
  core: Core;
  skald: SkaldApi;
  close(): Promise<void>;
}

export async function installRealBridge(): Promise<RealBridge> {
  const root = tempDir('skald-renderer-');
  const dataDir = join(root, 'data');
  const workspaceDir = join(dataDir, 'workspace');
  mkdirSync(workspaceDir, { recursive: true });
  const core = await createCore({ dataDir, workspaceDir, shape: 'web', version: 'test', agentsDir: join(__dirname, '../../agents') });
  const skald = buildSkaldApi({
    invoke: async (channel: CallChannel, request: unknown) => {
      const outcome = await dispatchCall(core.handlers, channel, request);
      if (!outcome.ok) throw new BridgeError(outcome.error.code, outcome.error.message);
      return outcome.result;
    },
    subscribe: (family: EventFamily, listener: (payload: unknown) => void) => core.events.subscribe(family, listener as never),
  });
  (globalThis as { window?: unknown }).window = { skald, location: { search: '' } };
  return {
    core,
    skald,
    async close() {
      await core.dispose();
      cleanupTempDirs();
    },
  };
}

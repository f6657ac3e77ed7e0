/**
 * Renderer stores against the real core, without a browser: a real core over SQLite in a temp folder, and
 * `window.skaldBridge` shaped as the desktop preload's (calls answer the dispatcher's outcomes, dispatchCall), read by the
 * renderer's real boundary. Install it before importing a store: the store's bridge module reads `window.skaldBridge` once.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildSkaldApi, type PreloadApi, type SkaldApi } from '../../src/shared/contract/api';
import type { CallChannel, EventFamily } from '../../src/shared/contract/index';
import { fromPreload } from '../../src/renderer/src/bridge/boundary';
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
  const core = await createCore({
    dataDir,
    workspaceDir,
    shape: 'web',
    version: 'test',
    agentsDir: join(__dirname, '../../agents'),
  });
  // What the desktop preload exposes: each call answers the dispatcher's outcome as data (shared/contract/api.ts
  // PreloadApi); the stores reach it through the renderer's own boundary (bridge/skald.ts → fromPreload).
  const preload = buildSkaldApi({
    invoke: async (channel: CallChannel, request: unknown) =>
      structuredClone(await dispatchCall(core.handlers, channel, request)),
    subscribe: (family: EventFamily, listener: (payload: unknown) => void) =>
      core.events.subscribe(family, listener as never),
  }) as unknown as PreloadApi;
  const skald = fromPreload(preload);
  (globalThis as { window?: unknown }).window = { skaldBridge: preload, location: { search: '' } };
  return {
    core,
    skald,
    async close() {
      await core.dispose();
      cleanupTempDirs();
    },
  };
}

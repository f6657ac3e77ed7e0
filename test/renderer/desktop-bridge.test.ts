/**
 * The desktop bridge end to end, without Electron: the real IPC registrar over a real core, a preload-shaped
 * `window.skaldBridge` whose calls answer outcomes (structured-cloned, as IPC and contextBridge pass them), and the
 * renderer's boundary (fromPreload). A refused call arrives with the code the core gave it, never a parsed message.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSkaldApi, type PreloadApi, type SkaldApi } from '../../src/shared/contract/api';
import { BridgeError } from '../../src/shared/contract/define';
import { createCore, type Core } from '../../src/main/core/index';
import { registerBridge, type IpcMainLike } from '../../src/main/desktop/ipc-registrar';
import { fromPreload } from '../../src/renderer/src/bridge/boundary';
import { cleanupTempDirs, tempDir } from '../helpers/temp';

type Listener = Parameters<IpcMainLike['handle']>[1];
let core: Core;
let skald: SkaldApi;

beforeAll(async () => {
  const dataDir = join(tempDir('skald-desktop-bridge-'), 'data');
  mkdirSync(join(dataDir, 'workspace'), { recursive: true });
  core = await createCore({
    dataDir,
    workspaceDir: join(dataDir, 'workspace'),
    shape: 'desktop',
    version: 'test',
    agentsDir: join(__dirname, '../../agents'),
  });
  const handlers = new Map<string, Listener>();
  registerBridge(
    { handle: (c, l) => void handlers.set(c, l), removeHandler: (c) => void handlers.delete(c) },
    core.handlers,
    () => {},
  );
  const frame = { url: 'app://skald/index.html', parent: null };
  // The preload's transport: ipcRenderer.invoke answers what the handler returned, cloned across the process line.
  const preload = buildSkaldApi({
    invoke: async (channel, request) => structuredClone(await handlers.get(channel)!({ senderFrame: frame }, request)),
    subscribe: (family, listener) => core.events.subscribe(family, listener as never),
  }) as unknown as PreloadApi;
  skald = fromPreload(preload);
});
afterAll(async () => {
  await core.dispose();
  cleanupTempDirs();
});

describe('desktop bridge errors keep their code', () => {
  it('a call the core refuses rejects with its code and message', async () => {
    const failure = await skald.chat.history({ sessionId: 987_654 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(BridgeError);
    expect((failure as BridgeError).code).toBe('not_found');
  });

  it('a request the contract refuses rejects with bad_request, and the next call works', async () => {
    await expect(skald.app.ping({ text: 42 as never })).rejects.toMatchObject({ code: 'bad_request' });
    expect(await skald.app.ping({ text: 'hi' })).toMatchObject({ text: 'hi' });
  });
});

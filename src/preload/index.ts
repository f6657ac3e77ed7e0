/**
 * The preload (bundled into one CommonJS file so it runs with `sandbox: true`). It exposes `window.skaldBridge`, built
 * from the contract: one function per call, one subscribe per event family returning an unsubscribe. There is
 * no generic invoke/on/send (E2, I5); the channel strings never come from the page.
 * A call answers its `BridgeOutcome` as data (never throws): contextBridge would strip a thrown error down to its
 * message, so the error's code travels as data and the renderer's boundary rethrows it (docs/architecture.md
 * "Layers"). Check ids (E2, I5) are listed in docs/security-checks.md.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildSkaldApi, type PreloadApi } from '../shared/contract/api';
import type { BridgeOutcome } from '../shared/contract/define';

const api = buildSkaldApi({
  async invoke(channel, request): Promise<BridgeOutcome> {
    try {
      return (await ipcRenderer.invoke(channel, request)) as BridgeOutcome;
    } catch (error) {
      // The main process has no handler, or the IPC itself failed: still an outcome with a code.
      return {
        ok: false,
        error: { code: 'ipc_failed', message: error instanceof Error ? error.message : String(error) },
      };
    }
  },
  subscribe(family, listener) {
    const channel = `event:${family}`;
    // The main process sends an event as its JSON, serialized once for every window (desktop-app.ts).
    const handler = (_event: IpcRendererEvent, payload: unknown) =>
      listener(typeof payload === 'string' ? JSON.parse(payload) : payload);
    ipcRenderer.on(channel, handler);
    return () => ipcRenderer.removeListener(channel, handler);
  },
}) as unknown as PreloadApi; // same members as SkaldApi, each call answering its outcome

// The renderer wraps it into `window.skald` (renderer/src/bridge/skald.ts), unwrapping outcomes at its boundary.
contextBridge.exposeInMainWorld('skaldBridge', api);

/**
 * The preload (bundled into one CommonJS file so it runs with `sandbox: true`). It exposes `window.skald`, built
 * from the contract: one function per call, one subscribe per event family returning an unsubscribe. There is
 * no generic invoke/on/send (E2, I5); the channel strings never come from the page.
 * Check ids (E2, I5) are listed in docs/security-checks.md.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildSkaldApi } from '../shared/contract/api';
import { wireErrorMessage, type BridgeErrorShape } from '../shared/contract/define';

type Outcome = { ok: true; result: unknown } | { ok: false; error: BridgeErrorShape };

const api = buildSkaldApi({
  async invoke(channel, request) {
    const outcome = (await ipcRenderer.invoke(channel, request)) as Outcome;
    if (!outcome.ok) throw new Error(wireErrorMessage(outcome.error));
    return outcome.result;
  },
  subscribe(family, listener) {
    const channel = `event:${family}`;
    const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, handler);
    return () => ipcRenderer.removeListener(channel, handler);
  },
});

contextBridge.exposeInMainWorld('skald', api);

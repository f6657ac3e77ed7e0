/**
 * The one validating IPC registrar (docs/architecture.md "Layers"; checks I1, I2 in docs/security-checks.md), modelled
 * on VS Code's `validatedIpcMain`: a call is served only when it comes from our app origin's top-level frame, then the
 * shared dispatcher parses it with the contract's zod schema. Anything else is refused and logged; the handler never
 * sees it. Takes `ipcMain` as a parameter so it is tested without Electron.
 */
import { callChannels } from '../../shared/contract/index';
import { dispatchCall, type DispatchResult } from '../core/bridge/dispatch';
import { assertHandlersMatchContract, type BridgeHandlers } from '../core/bridge/handlers';

export const APP_ORIGIN = 'app://skald';

export interface SenderFrameLike {
  url: string;
  parent: unknown;
}

export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: { senderFrame: SenderFrameLike | null }, request: unknown) => unknown,
  ): void;
  removeHandler(channel: string): void;
}

export function isTrustedSender(frame: SenderFrameLike | null | undefined, origin = APP_ORIGIN): boolean {
  if (!frame || frame.parent !== null) return false;
  try {
    const url = new URL(frame.url);
    return `${url.protocol}//${url.host}` === origin;
  } catch {
    return false;
  }
}

export function registerBridge(
  ipcMain: IpcMainLike,
  handlers: BridgeHandlers,
  log: (message: string, error?: unknown) => void,
): () => void {
  assertHandlersMatchContract(handlers);
  for (const channel of callChannels) {
    ipcMain.handle(channel, async (event, request): Promise<DispatchResult> => {
      if (!isTrustedSender(event.senderFrame)) {
        log(`refused ${channel} from an untrusted frame (${event.senderFrame?.url ?? 'none'})`);
        return { ok: false, error: { code: 'forbidden', message: 'Calls are accepted only from the app window.' } };
      }
      return dispatchCall(handlers, channel, request, log);
    });
  }
  return () => callChannels.forEach((channel) => ipcMain.removeHandler(channel));
}

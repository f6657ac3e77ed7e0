/**
 * The renderer's only way to the core (docs/architecture.md): the preload's `window.skaldBridge` on desktop (its calls
 * answer outcomes), or the WebSocket client in the web shape, both behind the same boundary (boundary.ts: events
 * parsed, error codes kept). The result is `window.skald` in both shapes (so the e2e tests drive the same object the
 * app uses); every store and component imports `skald` from here.
 */
import type { PreloadApi, SkaldApi } from '../../../shared/contract/api';
import { fromPreload } from './boundary';
import { reportConnected } from './connection';
import { takeEarlySocket } from './early-socket';
import { createWebClient } from './web-client';

declare global {
  interface Window {
    skald?: SkaldApi;
    /** Desktop only: what the preload exposes (docs/architecture.md "Layers"). */
    skaldBridge?: PreloadApi;
  }
}

function install(): SkaldApi {
  if (window.skaldBridge) {
    // Desktop: IPC cannot drop.
    reportConnected();
    window.skald = fromPreload(window.skaldBridge);
    return window.skald;
  }
  // Not under Electron: the web shape.
  window.skald = createWebClient(window.location, takeEarlySocket());
  if (new URLSearchParams(window.location.search).has('token')) {
    window.history.replaceState(null, '', window.location.pathname);
  }
  return window.skald;
}

export const skald: SkaldApi = install();

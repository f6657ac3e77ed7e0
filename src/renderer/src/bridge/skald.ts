/**
 * The renderer's only way to the core (docs/architecture.md): the preload's `window.skald` on desktop, or the
 * WebSocket client in the web shape, both behind the same boundary (boundary.ts: events parsed, error codes kept).
 * Every store and component imports `skald` from here.
 */
import type { PreloadApi, SkaldApi } from '../../../shared/contract/api';
import { fromPreload } from './boundary';
import { reportConnected } from './connection';
import { createWebClient } from './web-client';

declare global {
  interface Window {
    skald?: SkaldApi;
  }
}

function install(): SkaldApi {
  // Desktop: the preload's object (read-only on window), whose calls answer outcomes (PreloadApi); IPC cannot drop.
  // `Window.skald` above types the web shape's object, which the e2e tests drive.
  const exposed = window.skald as unknown as PreloadApi | undefined;
  if (exposed) {
    reportConnected();
    return fromPreload(exposed);
  }
  // Not under Electron: the web shape. Exposed on window too so the e2e tests can drive the same object.
  window.skald = createWebClient(window.location);
  if (new URLSearchParams(window.location.search).has('token')) {
    window.history.replaceState(null, '', window.location.pathname);
  }
  return window.skald;
}

export const skald: SkaldApi = install();

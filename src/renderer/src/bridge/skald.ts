/**
 * The renderer's only way to the core (docs/architecture.md): the preload's `window.skald` on desktop, or the
 * WebSocket client in the web shape, both behind the same boundary (boundary.ts: events parsed, error codes kept).
 * Every store and component imports `skald` from here.
 */
import type { SkaldApi } from '../../../shared/contract/api';
import { fromPreload } from './boundary';
import { reportConnected } from './connection';
import { createWebClient } from './web-client';

declare global {
  interface Window {
    skald?: SkaldApi;
  }
}

function install(): SkaldApi {
  if (window.skald) {
    // Desktop: the preload's object (read-only on window); IPC cannot drop.
    reportConnected();
    return fromPreload(window.skald);
  }
  // Not under Electron: the web shape. Exposed on window too so the e2e tests can drive the same object.
  window.skald = createWebClient(window.location);
  if (new URLSearchParams(window.location.search).has('token')) {
    window.history.replaceState(null, '', window.location.pathname);
  }
  return window.skald;
}

export const skald: SkaldApi = install();

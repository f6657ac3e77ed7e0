/**
 * The renderer's only way to the core (SPEC.md §2): the preload's `window.skald` on desktop, or the WebSocket
 * client in the web shape. Every store and component imports `skald` from here.
 */
import type { SkaldApi } from '../../../shared/contract/api';
import { createWebClient } from './web-client';

declare global {
  interface Window {
    skald?: SkaldApi;
  }
}

function install(): SkaldApi {
  if (!window.skald) {
    // Not under Electron: the web shape. Exposed on window too so the e2e tests can drive the same object.
    window.skald = createWebClient(window.location);
    if (new URLSearchParams(window.location.search).has('token')) {
      window.history.replaceState(null, '', window.location.pathname);
    }
  }
  return window.skald;
}

export const skald: SkaldApi = install();

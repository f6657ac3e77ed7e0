/**
 * The single factory of every window's webPreferences (E1): isolated, sandboxed, no Node, no webview,
 * no insecure content, no experimental or Blink features.
 * Check ids (E1) are listed in docs/security-checks.md.
 */
import type { WebPreferences } from 'electron';

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    webviewTag: false,
    allowRunningInsecureContent: false,
    spellcheck: false,
  };
}

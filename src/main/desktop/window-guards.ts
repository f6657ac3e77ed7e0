/**
 * Hardening applied to every webContents (E5–E8): navigation and redirects away from the app are prevented, new windows are
 * denied (http(s) links go through `openExternalSafe`), `<webview>` cannot attach, and permission requests
 * (camera, geolocation, notifications …) are denied.
 * Check ids (E5, E6, E7, E8) are listed in docs/security-checks.md.
 */
import type { Session, WebContents } from 'electron';
import { APP_ORIGIN } from './ipc-registrar';

export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}

export function hardenWebContents(
  contents: WebContents,
  openExternal: (url: string) => void,
  log: (m: string) => void,
): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) {
      event.preventDefault();
      log(`blocked navigation to ${url.slice(0, 200)}`);
    }
  });
  // A redirect of an app request to another origin is a navigation too (E-checks: docs/desktop.md).
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) {
      event.preventDefault();
      log(`blocked a redirect to ${url.slice(0, 200)}`);
    }
  });
  contents.on('will-frame-navigate', (event) => {
    if (event.isMainFrame && !isAppUrl(event.url)) event.preventDefault();
    // The only subframe is the viewer's HTML preview: it may navigate within its own scheme, nowhere else.
    else if (!event.isMainFrame && !event.url.startsWith('skald-preview://')) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('blocked a <webview>');
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternal(url);
    return { action: 'deny' };
  });
}

export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

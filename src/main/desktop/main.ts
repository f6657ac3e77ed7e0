/**
 * The Electron shell: it adapts the core to windows and IPC and decides nothing (SPEC.md §2).
 * One instance (D4), content from `app://` (E3), hardened windows (E1, E5–E8), events forwarded to every window.
 */
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventFamilies } from '../../shared/contract/index';
import { resolveDataDir } from '../core/config';
import { createCore, type Core } from '../core/index';
import { serveAppRequest } from './app-protocol';
import { registerBridge } from './ipc-registrar';
import { safeStorageCipher } from './safe-storage-cipher';
import { openExternalSafe } from './open-external';
import { secureWebPreferences } from './secure-web-preferences';
import { denyPermissions, hardenWebContents } from './window-guards';

const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '../renderer');
const preloadPath = join(here, '../preload/index.cjs');
const log = (message: string, error?: unknown) => console.error(`[desktop] ${message}`, error ?? '');

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

function openExternal(url: string): void {
  void openExternalSafe(url, {
    openExternal: (u) => shell.openExternal(u),
    confirm: async (message) => (await dialog.showMessageBox({ message, buttons: ['Cancel', 'Open'], cancelId: 0 })).response === 1,
    log,
  });
}

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({ width: 1280, height: 840, show: false, webPreferences: secureWebPreferences(preloadPath) });
  win.once('ready-to-show', () => win.show());
  void win.loadURL('app://skald/index.html');
  return win;
}

async function start(): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  await app.whenReady();
  const dataDir = resolveDataDir(process.argv, process.env, app.getPath('userData'));
  const core: Core = await createCore(
    {
      dataDir,
      workspaceDir: join(dataDir, 'workspace'),
      shape: 'desktop',
      version: app.getVersion(),
      sqliteNativeBinding: process.env.SKALD_SQLITE_BINDING,
      agentsDir: join(app.getAppPath(), 'agents'),
    },
    {
      secretCipher: safeStorageCipher(safeStorage),
      // SPEC.md §3.11: desktop restart relaunches the app.
      requestRestart: () => {
        app.relaunch();
        app.exit(0);
      },
    },
  );

  protocol.handle('app', (request) => serveAppRequest(rendererDir, request.url));
  denyPermissions(session.defaultSession);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal, log));
  registerBridge(ipcMain, core.handlers, log);
  for (const family of eventFamilies) {
    core.events.subscribe(family, (payload) => {
      for (const win of BrowserWindow.getAllWindows()) win.webContents.send(`event:${family}`, payload);
    });
  }

  let win = createWindow();
  core.start();
  app.on('second-instance', () => {
    if (win.isDestroyed()) win = createWindow();
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  // SPEC §3.7: closing the window does not stop a turn; the app keeps running until it is quit.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => void core.dispose());
}

start().catch((error) => {
  log('failed to start', error);
  app.exit(1);
});

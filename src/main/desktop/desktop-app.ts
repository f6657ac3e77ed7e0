/**
 * The desktop app's lifecycle (docs/desktop.md). It adapts the core to Electron and decides nothing about the
 * product; every rule below is tested with the Electron stand-in (`test/electron-standin/`).
 * - One instance: a second launch focuses the first and exits.
 * - Closing the window hides it: turns, schedules and MCP servers go on. The tray (Open, the number of waiting
 *   approvals, Quit) and a second launch bring it back.
 * - Quit stops every turn, ends the child process groups and closes the database (`core.dispose()`), awaited up to
 *   `quitTimeoutMs`, and only then exits; a restart does the same and relaunches.
 * - A native notification says when an approval or a question waits while the window is hidden or unfocused; a
 *   click opens the window.
 * - Window size, position and maximized state are remembered (window-state.ts); the menu is our own (app-menu.ts).
 * - A window whose renderer crashed is reloaded; what runs goes on in the core (renderer-recovery.ts).
 * - Every registration (IPC handlers, event subscriptions) keeps its disposer, run at quit.
 */
import { join } from 'node:path';
import { eventFamilies } from '../../shared/contract/index';
import { resolveDataDir, warmUpDelayFromEnv } from '../core/config';
import { createCore, type Core } from '../core/index';
import { PREVIEW_SCHEME, serveAppRequest, servePreviewRequest, usePreviewScheme } from './app-protocol';
import { appMenuTemplate } from './app-menu';
import type { BrowserWindowLike, ElectronLike } from './electron-like';
import { registerBridge } from './ipc-registrar';
import { reloadWhenRendererGone } from './renderer-recovery';
import { chooseSqliteBinding } from './native-binding';
import { openExternalSafe } from './open-external';
import { safeStorageCipher } from './safe-storage-cipher';
import { secureWebPreferences } from './secure-web-preferences';
import { denyPermissions, hardenWebContents } from './window-guards';
import { DEFAULT_SIZE, loadWindowState, saveWindowState } from './window-state';
import { windowListener } from '../core/window-events';

export const APP_NAME = 'Skald';
export const DEFAULT_QUIT_TIMEOUT_MS = 10_000;

export interface DesktopOptions {
  electron: ElectronLike;
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  rendererDir: string;
  preloadPath: string;
  iconPath: string;
  agentsDir: string;
  /** Where the native modules come from; defaults to this process (`process.versions.electron`, `resourcesPath`). */
  runtime?: { electronVersion?: string; resourcesPath?: string };
  /** How long quit waits for the core to stop before exiting anyway. */
  quitTimeoutMs?: number;
  log?: (message: string, error?: unknown) => void;
}

export interface DesktopApp {
  readonly core: Core;
  window(): BrowserWindowLike;
  /** Brings the window back (creating it again if it was destroyed), restores and focuses it. */
  show(): void;
  /** The whole quit: stop the core (bounded), dispose registrations, exit. Resolves when exit was called. */
  quit(options?: { relaunch?: boolean }): Promise<void>;
  /** The waiting approvals and questions, as the tray shows them. */
  waitingCount(): number;
}

function withTimeout(work: Promise<unknown>, ms: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(
      () => 'done' as const,
      () => 'done' as const,
    ),
    new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms))),
  ]).finally(() => clearTimeout(timer));
}

export async function startDesktop(options: DesktopOptions): Promise<DesktopApp | null> {
  const { electron: e, log = (m, err) => console.error(`[desktop] ${m}`, err ?? '') } = options;
  const { app } = e;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  await app.whenReady();
  const isMac = process.platform === 'darwin';
  const dataDir = resolveDataDir(options.argv, options.env, app.getPath('userData'));
  const disposers: (() => void)[] = [];
  let quitting: Promise<void> | null = null;
  let isExiting = false;
  let relaunchOnExit = false;

  const runtime = options.runtime ?? {
    electronVersion: process.versions.electron,
    resourcesPath: (process as { resourcesPath?: string }).resourcesPath,
  };
  const sqlite = chooseSqliteBinding({ ...runtime, isPackaged: app.isPackaged, env: options.env });
  if (!sqlite.ok) throw new Error(`Skald cannot open its database: ${sqlite.reason}`);

  const core = await createCore(
    {
      dataDir,
      workspaceDir: join(dataDir, 'workspace'),
      shape: 'desktop',
      version: app.getVersion(),
      sqliteNativeBinding: sqlite.binding,
      agentsDir: options.agentsDir,
    },
    {
      secretCipher: safeStorageCipher(e.safeStorage),
      requestRestart: () => void desktop.quit({ relaunch: true }),
      // The viewer's "Open with the system app": the core has checked the path and the confirmation (docs/viewer.md).
      openWithSystem: (realPath) => e.shell.openPath(realPath),
      ...warmUpDelayFromEnv(options.env),
    },
  );

  const openExternal = (url: string) =>
    void openExternalSafe(url, {
      openExternal: (u) => e.shell.openExternal(u),
      confirm: async (message) =>
        (await e.dialog.showMessageBox({ message, buttons: ['Cancel', 'Open'], cancelId: 0 })).response === 1,
      log,
    });

  usePreviewScheme(core.viewer);
  e.protocol.handle('app', (request) => serveAppRequest(options.rendererDir, request.url, core.viewer));
  e.protocol.handle(PREVIEW_SCHEME, (request) => servePreviewRequest(core.viewer, request.url));
  denyPermissions(e.session.defaultSession);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal, log));
  disposers.push(registerBridge(e.ipcMain, core.handlers, log));
  for (const family of eventFamilies) {
    const channel = `event:${family}`;
    disposers.push(
      // Streamed deltas are joined per turn of the event loop on their way out (core/window-events.ts). An event is
      // serialized once, as JSON, whatever the number of windows (Electron would clone the object for each one; the
      // preload parses it back), inside the emit, on the path of the call that emits it.
      core.events.subscribe(
        family,
        windowListener(family, (payload) => {
          const windows = e.BrowserWindow.getAllWindows().filter((w) => !w.isDestroyed());
          if (windows.length === 0) return;
          const json = JSON.stringify(payload);
          for (const w of windows) w.webContents.send(channel, json);
        }),
      ),
    );
  }

  const workAreas = () => e.screen.getAllDisplays().map((d) => d.workArea);
  const icon = e.nativeImage.createFromPath(options.iconPath);
  let win: BrowserWindowLike = createWindow();

  function createWindow(): BrowserWindowLike {
    const state = loadWindowState(dataDir, workAreas());
    const w = new e.BrowserWindow({
      width: state.width ?? DEFAULT_SIZE.width,
      height: state.height ?? DEFAULT_SIZE.height,
      ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
      minWidth: 640,
      minHeight: 480,
      show: false,
      title: APP_NAME,
      icon,
      webPreferences: secureWebPreferences(options.preloadPath),
    });
    if (state.isMaximized) w.maximize();
    w.once('ready-to-show', () => w.show());
    const remember = () => {
      if (w.isDestroyed()) return;
      const bounds = w.isMaximized() ? w.getNormalBounds() : w.getBounds();
      try {
        saveWindowState(dataDir, { ...bounds, isMaximized: w.isMaximized() });
      } catch (error) {
        log('could not save the window state', error);
      }
    };
    // Closing hides: the app keeps running (turns, schedules) until it is quit from the tray or the menu.
    w.on('close', (event) => {
      remember();
      if (quitting) return;
      event.preventDefault();
      w.hide();
    });
    w.on('resized', remember);
    w.on('moved', remember);
    reloadWhenRendererGone(w.webContents, log);
    void w.loadURL('app://skald/index.html');
    return w;
  }

  function show(): void {
    if (win.isDestroyed()) win = createWindow();
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  // Waiting approvals and questions: the tray's count and a notification when the window is not in view.
  let waiting = 0;
  const tray = new e.Tray(icon);
  const refreshTray = () => {
    const label = waiting === 0 ? 'Nothing waits for you' : `${waiting} waiting for your approval`;
    tray.setToolTip(waiting === 0 ? APP_NAME : `${APP_NAME}: ${label}`);
    tray.setContextMenu(
      e.Menu.buildFromTemplate([
        { label: `Open ${APP_NAME}`, click: show },
        { label, enabled: false },
        { type: 'separator' },
        { label: 'Quit', click: () => void desktop.quit() },
      ]),
    );
  };
  const inView = () => !win.isDestroyed() && win.isVisible() && win.isFocused();
  const recount = async () => {
    try {
      const inbox = await core.handlers['inbox:list']({});
      waiting = inbox.total;
    } catch (error) {
      log('could not count the waiting approvals', error);
    }
    refreshTray();
  };
  tray.on('click', show);
  refreshTray();
  void recount();
  disposers.push(
    core.events.subscribe('inbox', (event) => {
      void recount();
      if (event.type !== 'approval_requested' && event.type !== 'clarification_requested') return;
      if (!e.Notification.isSupported() || inView()) return;
      const body =
        event.type === 'approval_requested'
          ? `${event.tool_name} waits for your approval.`
          : `A question waits for you: ${event.title}`;
      const note = new e.Notification({ title: APP_NAME, body, icon });
      note.on('click', show);
      note.show();
    }),
  );

  // A chat's turn that ended with an answer while the person was elsewhere (docs/desktop.md "Notifications"); a
  // sub-agent's answers (their own stack) and background runs (their own notice, docs/scheduler.md) are not told.
  disposers.push(
    core.events.subscribe('chat', (event) => {
      if (event.type !== 'done' || event.stack_id !== undefined || !e.Notification.isSupported() || inView()) return;
      const session = core.sessions.store.getSession(event.session_id);
      if (!session?.is_interactive) return;
      const text = event.content.replace(/\s+/g, ' ').trim();
      const note = new e.Notification({
        title: APP_NAME,
        body: `Answered in “${session.title || `Session ${session.id}`}”: ${text.length > 120 ? `${text.slice(0, 119)}…` : text}`,
        icon,
      });
      note.on('click', show);
      note.show();
    }),
  );

  e.Menu.setApplicationMenu(
    e.Menu.buildFromTemplate(
      appMenuTemplate({ isPackaged: app.isPackaged, isMac, appName: APP_NAME, onQuit: () => void desktop.quit() }),
    ),
  );
  app.on('second-instance', show);
  app.on('activate', show);
  // The window's close only hides it, so this fires only when windows are destroyed at quit: nothing to do.
  app.on('window-all-closed', () => {});
  // Quit from the OS (dock menu, logout, Cmd+Q): hold the exit until the core has stopped.
  app.on('before-quit', (event) => {
    if (isExiting) return;
    event.preventDefault();
    void desktop.quit();
  });

  const desktop: DesktopApp = {
    core,
    window: () => win,
    show,
    waitingCount: () => waiting,
    quit(opts = {}) {
      if (opts.relaunch) relaunchOnExit = true;
      quitting ??= (async () => {
        const outcome = await withTimeout(core.dispose(), options.quitTimeoutMs ?? DEFAULT_QUIT_TIMEOUT_MS);
        if (outcome === 'timeout')
          log(`the core did not stop within ${options.quitTimeoutMs ?? DEFAULT_QUIT_TIMEOUT_MS} ms; exiting anyway`);
        for (const dispose of disposers.splice(0).reverse()) {
          try {
            dispose();
          } catch (error) {
            log('a disposer failed at quit', error);
          }
        }
        tray.destroy();
        isExiting = true;
        if (relaunchOnExit) app.relaunch();
        app.exit(0);
      })();
      return quitting;
    },
  };
  core.start();
  return desktop;
}

/**
 * A stand-in for the part of Electron's main-process API the desktop shell uses (docs/desktop.md), built on Node's
 * EventEmitter, so the shell's lifecycle is tested in plain Node where the Electron binary cannot be downloaded.
 * It keeps Electron's observable rules that the shell relies on: `before-quit` can be prevented, a window's `close`
 * can be prevented, `app.exit()` ends without events, `web-contents-created` fires for every new window, IPC
 * handlers are one per channel. It records what a test needs to see (windows and their options, sent events, tray
 * menus, notifications, the application menu, relaunch and exit, the URLs and paths handed to the system).
 * What it does not prove: OS integration (a real tray, real notifications, the sandboxed preload's limits).
 * With an `observer` (remote-main.ts) the windows are shown by a real Chromium in another process: window creation,
 * loads, `webContents.send`, exit and relaunch are reported to it, and `loadURL` resolves once the page has loaded.
 */
import { EventEmitter } from 'node:events';
import type { ElectronLike } from '../../src/main/desktop/electron-like';

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

class Emitter extends EventEmitter {
  /** Emits an event whose first argument can be prevented; returns whether a listener prevented it. */
  emitPreventable(name: string, ...args: unknown[]): boolean {
    let prevented = false;
    const event = { preventDefault: () => void (prevented = true), defaultPrevented: false };
    this.emit(name, event, ...args);
    return prevented;
  }
}

/** What a real renderer host (remote-main.ts) is told; every member is optional. */
export interface StandinObserver {
  windowCreated?(id: number, options: Record<string, unknown>): void;
  /** Resolves when the page has loaded (or rejects with the load's error). */
  load?(id: number, url: string): Promise<void>;
  sent?(id: number, channel: string, args: unknown[]): void;
  exited?(code: number): void;
  relaunched?(): void;
  openedExternal?(url: string): void;
  schemesRegistered?(schemes: unknown[]): void;
}

type PermissionRequestHandler = (
  contents: unknown,
  permission: string,
  callback: (granted: boolean) => void,
  details: unknown,
) => void;
type PermissionCheckHandler = (contents: unknown, permission: string, origin: string, details: unknown) => boolean;

let nextContentsId = 1;

export class StandinWebContents extends Emitter {
  readonly id = nextContentsId++;
  readonly sent: { channel: string; payload: unknown }[] = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  constructor(private readonly observer?: StandinObserver) {
    super();
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, payload: args[0] });
    this.observer?.sent?.(this.id, channel, args);
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  /** How often the shell reloaded the page (after a renderer crash). */
  reloads = 0;
  /** Set by its window: Electron's `reload` loads the window's page again, in a new renderer after a crash. */
  reloadHook: (() => void) | null = null;
  destroyedHook: (() => boolean) | null = null;
  reload(): void {
    this.reloads++;
    this.reloadHook?.();
  }
  isDestroyed(): boolean {
    return this.destroyedHook?.() ?? false;
  }
}

export function createElectronStandin(options: {
  userData: string;
  isPackaged?: boolean;
  hasLock?: boolean;
  displays?: Rect[];
  appPath?: string;
  observer?: StandinObserver;
}) {
  const observer = options.observer;
  const windows: StandinWindow[] = [];
  const handlers = new Map<string, (event: unknown, request: unknown) => unknown>();
  const protocolHandlers = new Map<string, (request: { url: string }) => Promise<Response> | Response>();
  const trays: StandinTray[] = [];
  const notifications: StandinNotification[] = [];
  const log = {
    exitCode: null as number | null,
    relaunched: 0,
    quitCalls: 0,
    applicationMenu: null as unknown,
    permissionHandlers: 0,
    privileged: [] as unknown[],
    errorBoxes: [] as { title: string; content: string }[],
    openedExternal: [] as string[],
    openedPaths: [] as string[],
  };
  const permission = { request: null as PermissionRequestHandler | null, check: null as PermissionCheckHandler | null };

  const app = new (class extends Emitter {
    isPackaged = options.isPackaged ?? false;
    private ready = Promise.resolve();
    whenReady = () => this.ready;
    requestSingleInstanceLock = () => options.hasLock ?? true;
    getPath = (name: string) => (name === 'userData' ? options.userData : `/nonexistent/${name}`);
    getVersion = () => '0.0.0-standin';
    getAppPath = () => options.appPath ?? process.cwd();
    relaunch = () => {
      log.relaunched++;
      observer?.relaunched?.();
    };
    exit = (code = 0) => {
      log.exitCode = code;
      observer?.exited?.(code);
    };
    /** Electron: before-quit (preventable) → windows close → will-quit → quit. */
    quit = () => {
      log.quitCalls++;
      if (this.emitPreventable('before-quit')) return;
      for (const w of [...windows]) w.close();
      if (this.emitPreventable('will-quit')) return;
      this.emit('quit');
    };
  })();

  class StandinWindow extends Emitter {
    readonly webContents = new StandinWebContents(observer);
    private hasShownReady = false;
    readonly options: Record<string, unknown>;
    loadedUrl: string | null = null;
    private visible = false;
    private focused = false;
    private maximized = false;
    private minimized = false;
    private destroyed = false;
    private bounds: Rect;
    constructor(opts: Record<string, unknown>) {
      super();
      this.options = opts;
      this.bounds = {
        x: (opts.x as number) ?? 100,
        y: (opts.y as number) ?? 100,
        width: (opts.width as number) ?? 800,
        height: (opts.height as number) ?? 600,
      };
      windows.push(this);
      this.webContents.reloadHook = () => void (this.loadedUrl && this.loadURL(this.loadedUrl));
      this.webContents.destroyedHook = () => this.destroyed;
      app.emit('web-contents-created', {}, this.webContents);
      observer?.windowCreated?.(this.webContents.id, opts);
    }
    static getAllWindows = () => windows.filter((w) => !w.destroyed);
    /** Electron: `ready-to-show` once, after the first load has painted. */
    async loadURL(url: string) {
      this.loadedUrl = url;
      const readyOnce = () => {
        if (this.hasShownReady) return;
        this.hasShownReady = true;
        this.emit('ready-to-show');
      };
      const loaded = () => {
        this.webContents.emit('did-finish-load');
        readyOnce();
      };
      if (!observer?.load) {
        setImmediate(loaded);
        return;
      }
      await observer.load(this.webContents.id, url);
      loaded();
    }
    show() {
      this.visible = true;
      this.focused = true;
      this.minimized = false;
    }
    hide() {
      this.visible = false;
      this.focused = false;
    }
    focus() {
      this.focused = true;
    }
    blur() {
      this.focused = false;
    }
    isVisible() {
      return this.visible;
    }
    isFocused() {
      return this.focused;
    }
    isMinimized() {
      return this.minimized;
    }
    minimize() {
      this.minimized = true;
      this.focused = false;
    }
    restore() {
      this.minimized = false;
    }
    maximize() {
      this.maximized = true;
    }
    isMaximized() {
      return this.maximized;
    }
    isDestroyed() {
      return this.destroyed;
    }
    getBounds() {
      return { ...this.bounds };
    }
    getNormalBounds() {
      return { ...this.bounds };
    }
    setBounds(b: Partial<Rect>) {
      this.bounds = { ...this.bounds, ...b };
      this.emit('resized');
    }
    /** Electron: `close` is preventable; when not prevented the window is destroyed. */
    close() {
      if (this.destroyed) return;
      if (this.emitPreventable('close')) return;
      this.destroy();
    }
    destroy() {
      this.destroyed = true;
      this.visible = false;
      this.emit('closed');
      if (windows.every((w) => w.destroyed)) app.emit('window-all-closed');
    }
  }

  class StandinTray extends Emitter {
    tooltip = '';
    menu: { template: unknown[] } | null = null;
    isDestroyed = false;
    constructor(readonly image: unknown) {
      super();
      trays.push(this);
    }
    setToolTip(t: string) {
      this.tooltip = t;
    }
    setContextMenu(m: { template: unknown[] }) {
      this.menu = m;
    }
    destroy() {
      this.isDestroyed = true;
    }
  }

  class StandinNotification extends Emitter {
    shown = false;
    constructor(readonly options: { title: string; body: string }) {
      super();
      notifications.push(this);
    }
    static isSupported = () => true;
    show() {
      this.shown = true;
    }
  }

  const electron = {
    app,
    BrowserWindow: StandinWindow,
    ipcMain: {
      handle: (channel: string, fn: (event: unknown, request: unknown) => unknown) => {
        if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
        handlers.set(channel, fn);
      },
      removeHandler: (channel: string) => void handlers.delete(channel),
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => {
        log.privileged.push(...schemes);
        observer?.schemesRegistered?.(schemes);
      },
      handle: (scheme: string, fn: (request: { url: string }) => Promise<Response> | Response) =>
        void protocolHandlers.set(scheme, fn),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: PermissionRequestHandler) => {
          log.permissionHandlers++;
          permission.request = handler;
        },
        setPermissionCheckHandler: (handler: PermissionCheckHandler) => {
          log.permissionHandlers++;
          permission.check = handler;
        },
      },
    },
    safeStorage: {
      isEncryptionAvailable: () => false,
      encryptString: () => Buffer.alloc(0),
      decryptString: () => '',
      getSelectedStorageBackend: () => 'basic_text',
    },
    shell: {
      openExternal: async (url: string) => {
        log.openedExternal.push(url);
        observer?.openedExternal?.(url);
      },
      /** Electron: resolves with an error message, '' when the system opened the file. Recorded, never opened. */
      openPath: async (path: string) => {
        log.openedPaths.push(path);
        return '';
      },
    },
    dialog: {
      showMessageBox: async () => ({ response: 0 }),
      showErrorBox: (title: string, content: string) => void log.errorBoxes.push({ title, content }),
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu: (menu: unknown) => void (log.applicationMenu = menu),
    },
    Tray: StandinTray,
    Notification: StandinNotification,
    nativeImage: { createFromPath: (path: string) => ({ path }) },
    screen: {
      getAllDisplays: () =>
        (options.displays ?? [{ x: 0, y: 0, width: 1920, height: 1080 }]).map((workArea) => ({ workArea })),
    },
  };

  return {
    electron: electron as unknown as ElectronLike,
    /** The same object with the stand-in's own types, for remote-main.ts. */
    api: electron,
    app,
    permission,
    windows,
    trays,
    notifications,
    log,
    /** Calls an IPC handler as a renderer frame at `frameUrl` would. */
    invoke: (channel: string, request: unknown, frameUrl = 'app://skald/index.html', parent: unknown = null) => {
      const fn = handlers.get(channel);
      if (!fn) throw new Error(`no handler for ${channel}`);
      return fn({ senderFrame: { url: frameUrl, parent } }, request);
    },
    /** Calls an IPC handler as Electron would for a renderer frame (null when the frame is gone). */
    invokeFrom: (senderFrame: { url: string; parent: unknown } | null, channel: string, args: unknown[]) => {
      const fn = handlers.get(channel);
      if (!fn) throw new Error(`No handler registered for '${channel}'`);
      return (fn as (event: unknown, ...rest: unknown[]) => unknown)({ senderFrame }, ...args);
    },
    handlerCount: () => handlers.size,
    fetchApp: (url: string) => {
      const fn = protocolHandlers.get(new URL(url).protocol.slice(0, -1));
      if (!fn) throw new Error(`no protocol handler for ${url}`);
      return Promise.resolve(fn({ url }));
    },
    /** A request as Electron hands it to `protocol.handle` (a fetch Request). */
    handleProtocol: (scheme: string, request: Request) => {
      const fn = protocolHandlers.get(scheme);
      if (!fn) throw new Error(`no protocol handler for ${scheme}:`);
      return Promise.resolve(fn(request));
    },
  };
}

export type ElectronStandin = ReturnType<typeof createElectronStandin>;

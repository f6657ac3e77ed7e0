/**
 * The part of Electron's main-process API the desktop shell uses, as a type (docs/desktop.md). The shell takes it
 * as a parameter — `main.ts` passes the real `electron` module, the tests pass the stand-in in
 * `test/electron-standin/` — so every lifecycle rule is tested in plain Node.
 */
import type * as Electron from 'electron';

export type ElectronLike = Pick<
  typeof Electron,
  | 'app'
  | 'BrowserWindow'
  | 'ipcMain'
  | 'protocol'
  | 'session'
  | 'safeStorage'
  | 'shell'
  | 'dialog'
  | 'Menu'
  | 'Tray'
  | 'Notification'
  | 'nativeImage'
  | 'screen'
>;

export type BrowserWindowLike = Electron.BrowserWindow;

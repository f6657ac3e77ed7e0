/**
 * What `import … from 'electron'` gives the real built main bundle when it runs under the stand-in in a child
 * process (register.mjs points `electron` here): the stand-in, connected to the test's renderer host.
 */
import { connectToHost } from './remote-main';

const standin = connectToHost();

export const {
  app,
  BrowserWindow,
  ipcMain,
  protocol,
  session,
  safeStorage,
  shell,
  dialog,
  Menu,
  Tray,
  Notification,
  nativeImage,
  screen,
} = standin.api;
export default standin.api;

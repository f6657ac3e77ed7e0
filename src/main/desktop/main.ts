/**
 * The Electron entry: hands the real `electron` module and the built files' places to the lifecycle in
 * desktop-app.ts (docs/desktop.md). The `app://` scheme must be registered before the app is ready.
 */
import * as electron from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PREVIEW_SCHEME } from './app-protocol';
import { startDesktop } from './desktop-app';

const here = fileURLToPath(new URL('.', import.meta.url));
const log = (message: string, error?: unknown) => console.error(`[desktop] ${message}`, error ?? '');

electron.protocol.registerSchemesAsPrivileged([
  // codeCache: V8 keeps the compiled scripts of app:// (the entry, Monaco, pdf.js) for the next launch (docs/desktop.md).
  { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
  // The viewer's HTML preview origin (docs/viewer.md): standard so it has an origin of its own, never the app's.
  { scheme: PREVIEW_SCHEME, privileges: { standard: true, secure: true } },
]);

startDesktop({
  electron,
  argv: process.argv,
  env: process.env,
  rendererDir: join(here, '../renderer'),
  preloadPath: join(here, '../preload/index.cjs'),
  iconPath: join(electron.app.getAppPath(), 'resources', 'icon.png'),
  agentsDir: join(electron.app.getAppPath(), 'agents'),
  log,
}).catch((error) => {
  log('failed to start', error);
  // Said in a box too: a packaged app has no terminal to read the log in.
  electron.dialog.showErrorBox('Skald could not start', error instanceof Error ? error.message : String(error));
  electron.app.exit(1);
});

/**
 * The Electron entry: hands the real `electron` module and the built files' places to the lifecycle in
 * desktop-app.ts (docs/desktop.md). The `app://` scheme must be registered before the app is ready.
 */
import * as electron from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDesktop } from './desktop-app';

const here = fileURLToPath(new URL('.', import.meta.url));
const log = (message: string, error?: unknown) => console.error(`[desktop] ${message}`, error ?? '');

electron.protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

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
  electron.app.exit(1);
});

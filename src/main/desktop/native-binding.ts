/**
 * Which better-sqlite3 native binary the desktop core loads (docs/desktop.md "Native modules for two runtimes").
 * The copy in `node_modules` is built for Node (tests, the web shape, the Electron stand-in); Electron has another
 * ABI, so its build is kept apart and handed to better-sqlite3 through its `nativeBinding` option:
 * - not in Electron (plain Node): the `node_modules` build, nothing to choose;
 * - a packaged app: `<resources>/native/better_sqlite3.node`, which `npm run dist` puts there (an extra resource,
 *   outside the asar: a native module must be a real file to be loaded);
 * - a development run: the path `npm start` built under `.skald-native/` and passed in `SKALD_SQLITE_BINDING`.
 * Anything else is refused with one line that says what to do, never a crash deep inside better-sqlite3 about a
 * NODE_MODULE_VERSION mismatch.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const PACKAGED_BINDING = ['native', 'better_sqlite3.node'] as const;
export const BINDING_ENV = 'SKALD_SQLITE_BINDING';

export interface BindingRuntime {
  /** `process.versions.electron`: absent in plain Node. */
  electronVersion?: string;
  isPackaged: boolean;
  /** `process.resourcesPath` of the packaged app. */
  resourcesPath?: string;
  env: NodeJS.ProcessEnv;
  exists?: (path: string) => boolean;
}

export type BindingChoice =
  | { ok: true; binding: string | undefined; source: 'node_modules' | 'packaged' | 'development' }
  | { ok: false; reason: string };

export function chooseSqliteBinding(runtime: BindingRuntime): BindingChoice {
  const exists = runtime.exists ?? existsSync;
  if (!runtime.electronVersion) return { ok: true, binding: undefined, source: 'node_modules' };
  if (runtime.isPackaged) {
    const binding = runtime.resourcesPath ? join(runtime.resourcesPath, ...PACKAGED_BINDING) : undefined;
    if (binding && exists(binding)) return { ok: true, binding, source: 'packaged' };
    return {
      ok: false,
      reason: `this build has no better-sqlite3 for Electron ${runtime.electronVersion} (resources/${PACKAGED_BINDING.join('/')} is missing); rebuild it with \`npm run dist\``,
    };
  }
  const fromEnv = runtime.env[BINDING_ENV];
  if (fromEnv && exists(fromEnv)) return { ok: true, binding: fromEnv, source: 'development' };
  return {
    ok: false,
    reason: fromEnv
      ? `${BINDING_ENV} names ${fromEnv}, which does not exist; \`npm start\` builds it under .skald-native/`
      : `better-sqlite3 for Electron ${runtime.electronVersion} was not given (${BINDING_ENV}); start the app with \`npm start\`, which builds it under .skald-native/`,
  };
}

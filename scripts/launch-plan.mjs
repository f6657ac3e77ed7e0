/**
 * What `npm start` opens (docs/desktop.md "Native modules for two runtimes"): the desktop app when the Electron
 * binary is there AND better-sqlite3 could be had for Electron's ABI; otherwise the web shape, with the one-line
 * reason. Pure, so the choice is tested without Electron (`test/packaging/launch-plan.test.ts`); `start.mjs` passes
 * the real probes.
 */

/** `findElectron()` → `{ path }` or `{ reason }`; `buildBinding()` → a path, or throws with a one-line message. */
export function planLaunch({ forceWeb, findElectron, buildBinding }) {
  if (forceWeb) return { shape: 'web', reason: 'SKALD_FORCE_WEB is set' };
  const electron = findElectron();
  if (!electron.path) return { shape: 'web', reason: oneLine(electron.reason ?? 'no Electron binary') };
  try {
    return { shape: 'desktop', electronPath: electron.path, binding: buildBinding() };
  } catch (error) {
    return {
      shape: 'web',
      reason: oneLine(`better-sqlite3 could not be had for Electron (${error?.message ?? error})`),
    };
  }
}

function oneLine(text) {
  return String(text).replace(/\s+/g, ' ').trim().slice(0, 300);
}

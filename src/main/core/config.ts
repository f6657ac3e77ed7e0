/**
 * Where data lives (docs/architecture.md "Shapes and processes"): `--data-dir`, else `SKALD_HOME`, else the shell's
 * default (Electron's userData, or `~/.skald` for the web shape). The workspace defaults to `workspace/` inside the
 * data folder.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface CoreConfig {
  dataDir: string;
  workspaceDir: string;
  shape: 'desktop' | 'web';
  version: string;
  /** A better-sqlite3 build for the running ABI (desktop); absent = the Node build in node_modules. */
  sqliteNativeBinding?: string;
  /** Folder of `agents/<id>/AGENT.md` (+ meta.json); read per request so edits apply at once. */
  agentsDir?: string;
}

export function argValue(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  if (i >= 0) return argv[i + 1];
  const inline = argv.find((a) => a.startsWith(`${flag}=`));
  return inline?.slice(flag.length + 1);
}

export function resolveDataDir(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  fallback = join(homedir(), '.skald'),
): string {
  const chosen = argValue(argv, '--data-dir') ?? env.SKALD_HOME ?? fallback;
  return resolve(chosen);
}

export function dbFile(dataDir: string): string {
  return join(dataDir, 'skald.db');
}

/**
 * The background warm-up's delay from `SKALD_WARM_UP_DELAY_MS` (a test hook, unset in use): the e2e tests start a
 * fresh app per test and most never need what the warm-up loads, so they put it off (e2e/fixtures.ts); whatever a test
 * does use still loads when first used. Absent or not a number: the core's default (WARM_UP_DELAY_MS).
 */
export function warmUpDelayFromEnv(env: NodeJS.ProcessEnv): { warmUpDelayMs?: number } {
  const ms = Number(env.SKALD_WARM_UP_DELAY_MS);
  return env.SKALD_WARM_UP_DELAY_MS && Number.isFinite(ms) && ms >= 0 ? { warmUpDelayMs: ms } : {};
}

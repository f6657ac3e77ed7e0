/**
 * App-wide settings a person chooses in Settings (docs/ui.md): the default working directory and permission group
 * of new sessions, the theme, how much diff history the viewer keeps (docs/viewer.md "Diff and revert"), and the
 * person's own instructions to the model (docs/chat-ui.md "Your instructions"), and whether commands run outside a
 * sandbox that cannot start (docs/sandbox.md). Kept in the `settings` table (one row per key, JSON), behind this one writer.
 * Every write validates first (the caller passes the checks that need other services) and writes all keys of one
 * call in one transaction, or none.
 * Limits: a default group deleted later is not rewritten here; `newSessionContext` skips a group that is gone.
 */
import { statement, type Db } from '../db/database';
import { DEFAULT_LIMITS } from '../viewer/blob-store';

export type ThemeChoice = 'system' | 'light' | 'dark';

export interface AppSettings {
  /** Absolute; null = the workspace. */
  defaultWorkingDirectory: string | null;
  newSessionGroup: string;
  theme: ThemeChoice;
  /** The viewer's before/after images: pruned at start to `keepDays` and `maxMb` (viewer/blob-store.ts reads it). */
  diffHistory: { maxMb: number; keepDays: number };
  /** The person's standing instructions, given to each chat's agent in its system message; '' = none. */
  instructions: string;
  /** While the sandbox cannot start, run commands outside it instead of refusing them (docs/sandbox.md). */
  sandboxUnconfinedWhenUnavailable: boolean;
}

const DEFAULTS: AppSettings = {
  defaultWorkingDirectory: null,
  newSessionGroup: 'default',
  theme: 'system',
  diffHistory: { ...DEFAULT_LIMITS },
  instructions: '',
  sandboxUnconfinedWhenUnavailable: false,
};
const KEYS = {
  defaultWorkingDirectory: 'app.default_working_directory',
  newSessionGroup: 'app.new_session_group',
  theme: 'app.theme',
  diffHistory: 'viewer.blob_store',
  instructions: 'chat.instructions',
  sandboxUnconfinedWhenUnavailable: 'sandbox.unconfined_when_unavailable',
} as const;

export interface SettingsChecks {
  /** The absolute directory, or throws a BridgeError saying why it cannot be a working directory. */
  workingDirectory(path: string): string;
  /** Throws a BridgeError when there is no such permission group. */
  group(id: string): void;
  groupExists(id: string): boolean;
}

export class AppSettingsStore {
  constructor(
    private readonly db: Db,
    private readonly checks: SettingsChecks,
  ) {}

  get(): AppSettings {
    const rows = statement(
      this.db,
      `SELECT key, value_json FROM settings WHERE key IN (${Object.values(KEYS)
        .map(() => '?')
        .join(', ')})`,
    ).all(...Object.values(KEYS)) as { key: string; value_json: string }[];
    const out: AppSettings = { ...DEFAULTS };
    for (const row of rows) {
      const name = (Object.keys(KEYS) as (keyof AppSettings)[]).find((k) => KEYS[k] === row.key)!;
      try {
        const value: unknown = JSON.parse(row.value_json);
        // A partial or hand-edited diff history keeps the defaults for what it lacks.
        // Only a stored `true` runs commands outside a sandbox that cannot start.
        (out as unknown as Record<string, unknown>)[name] =
          name === 'diffHistory'
            ? { ...DEFAULTS.diffHistory, ...(value as object) }
            : name === 'sandboxUnconfinedWhenUnavailable'
              ? value === true
              : value;
      } catch {
        // a hand-edited row that is not JSON: the default stands
      }
    }
    return out;
  }

  /** Validates every given field, then writes them together. Returns the settings as stored. */
  set(patch: Partial<AppSettings>): AppSettings {
    const next: Partial<AppSettings> = { ...patch };
    if (patch.defaultWorkingDirectory !== undefined && patch.defaultWorkingDirectory !== null) {
      next.defaultWorkingDirectory = this.checks.workingDirectory(patch.defaultWorkingDirectory);
    }
    if (patch.newSessionGroup !== undefined) this.checks.group(patch.newSessionGroup);
    const upsert = this.db.prepare(
      'INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at',
    );
    this.db.transaction(() => {
      for (const [name, value] of Object.entries(next) as [keyof AppSettings, unknown][])
        upsert.run(KEYS[name], JSON.stringify(value), Date.now());
    })();
    return this.get();
  }

  /** The person's instructions, read each round (one prepared read of one row). */
  instructions(): string {
    const row = statement(this.db, 'SELECT value_json FROM settings WHERE key = ?').get(KEYS.instructions) as
      | { value_json: string }
      | undefined;
    try {
      const value: unknown = row ? JSON.parse(row.value_json) : '';
      return typeof value === 'string' ? value : '';
    } catch {
      return ''; // a hand-edited row that is not JSON: none
    }
  }

  /** What a new session starts with: the default working directory and group, when set and still valid. */
  newSessionContext(): { working_directory?: string; security_group?: string } {
    const s = this.get();
    const out: { working_directory?: string; security_group?: string } = {};
    if (s.defaultWorkingDirectory) out.working_directory = s.defaultWorkingDirectory;
    if (s.newSessionGroup !== 'default' && this.checks.groupExists(s.newSessionGroup))
      out.security_group = s.newSessionGroup;
    return out;
  }
}

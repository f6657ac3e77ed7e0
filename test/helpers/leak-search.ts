/**
 * Where a secret must never appear, searched as bytes and text: every console line the code under test writes (the
 * core logs through `console.error`), and the database file with its WAL after a checkpoint. For tests that prove a
 * secret leaves no trace (docs/plugins.md "Security checks").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { Db } from '../../src/main/core/db/database';

/** Records what is written to the console from now on (restored by `vi.restoreAllMocks()`). */
export function captureConsole(): string[] {
  const logged: string[] = [];
  for (const stream of ['error', 'log', 'warn', 'info', 'debug'] as const) {
    vi.spyOn(console, stream).mockImplementation(
      (...args: unknown[]) =>
        void logged.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')),
    );
  }
  return logged;
}

/** Whether the database file or its WAL holds `needle`'s bytes (after a full checkpoint). */
export function databaseHolds(db: Db, dataDir: string, needle: string): boolean {
  const file = join(dataDir, 'skald.db');
  db.pragma('wal_checkpoint(FULL)');
  return [file, `${file}-wal`].filter(existsSync).some((f) => readFileSync(f).includes(Buffer.from(needle)));
}

/**
 * Child processes started by tools, while they run: a crashed run's leftovers are ended at the next start (check R4
 * in docs/security-checks.md).
 */
import type { Migration } from '../migrate';

export const processesSchema: Migration = {
  version: 42,
  name: 'child-processes',
  up(db) {
    db.exec(`
      CREATE TABLE child_processes (
        pid INTEGER PRIMARY KEY,
        start_ticks TEXT NOT NULL,
        command TEXT NOT NULL,
        started_at INTEGER NOT NULL
      );
    `);
  },
};

/** Child processes started by tools, while they run (R4: leftovers of a crashed run are ended at the next start). */
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

/**
 * The sandbox's grants (docs/sandbox.md "The decision"): an allow rule may grant network to the commands it allows
 * (`approval_rules.network`, 0 or 1), and each decision keeps how its command runs (`tool_decisions.sandbox`:
 * 'network', 'unconfined', or null = in the sandbox without network) for the decision log. Columns added in place.
 */
import type { Migration } from '../migrate';

export const sandboxGrants: Migration = {
  version: 135,
  name: 'sandbox-grants',
  up(db) {
    db.exec(`
      ALTER TABLE approval_rules ADD COLUMN network INTEGER NOT NULL DEFAULT 0 CHECK (network IN (0, 1));
      ALTER TABLE tool_decisions ADD COLUMN sandbox TEXT CHECK (sandbox IN ('network', 'unconfined'));
    `);
  },
};

/**
 * Approval: the seeded `default` group and rules (docs/approval.md "Rules": what nothing else decides, asks), and the
 * request ledger. Seeds are insert-if-absent and run once, with this migration: a later start never re-adds a rule the
 * user deleted or overwrites one they edited. `approval_requests` gives approvals and clarifications one monotonic id
 * sequence that survives restarts (AUTOINCREMENT never reuses an id), so a decided id can never be replayed (I6).
 * Check ids (I6) are listed in docs/security-checks.md.
 */
import type { Migration } from '../migrate';

const SEED_NOTE = 'seeded';

export const approvalSchema: Migration = {
  version: 20,
  name: 'approval-seeds-and-requests',
  up(db) {
    const now = Date.now();
    db.prepare(
      `INSERT OR IGNORE INTO tool_permission_groups (id, name, description, created_at) VALUES ('default', 'Default', ?, ?)`,
    ).run('The rules every session falls back to. It cannot be deleted.', now);
    const insert = db.prepare(
      `INSERT INTO approval_rules (group_id, tool_pattern, path_pattern, action, note, priority, created_at)
       SELECT 'default', @tool, @path, @action, @note, @priority, @now
       WHERE NOT EXISTS (SELECT 1 FROM approval_rules WHERE group_id = 'default' AND tool_pattern = @tool
                         AND path_pattern IS @path AND command_pattern IS NULL AND agent_id IS NULL AND source IS NULL)`,
    );
    const seed = (tool: string, path: string | null, action: string, priority: number) =>
      insert.run({ tool, path, action, note: SEED_NOTE, priority, now });
    // The side-effecting built-ins ask even when a user later adds a broad allow (reference: only on an empty table).
    const empty = (db.prepare('SELECT COUNT(*) AS n FROM approval_rules').get() as { n: number }).n === 0;
    if (empty) {
      seed('execute_cmd', null, 'require', 10);
      seed('restart', null, 'require', 10);
    }
    seed('@fs_any', 'memory/*', 'allow', 5);
    seed('@fs_any', 'data/*', 'allow', 5);
    // Kept for visibility in the rule list; the hard guard enforces it whatever the rules say (docs/approval.md "Hard
    // guards").
    seed('@fs_any', 'secrets/*', 'deny', 5);
    for (const tool of ['write_todos', 'notify', 'activate_tools', 'show_file_to_user', 'image_generate'])
      seed(tool, null, 'allow', 10);
    const hasCatchAll = db
      .prepare(
        `SELECT 1 FROM approval_rules WHERE group_id = 'default' AND tool_pattern = '*' AND path_pattern IS NULL AND command_pattern IS NULL AND agent_id IS NULL AND source IS NULL`,
      )
      .get();
    if (!hasCatchAll) seed('*', null, 'require', 999_999);

    db.exec(`
      CREATE TABLE approval_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL CHECK (kind IN ('approval', 'clarification')),
        tool_call_id TEXT NOT NULL,
        session_id INTEGER,
        args_hash TEXT,
        created_at INTEGER NOT NULL,
        resolved_at INTEGER,
        outcome TEXT CHECK (outcome IN ('approved', 'rejected', 'timeout', 'answered', 'cancelled', 'superseded'))
      );
      CREATE INDEX approval_requests_open ON approval_requests(resolved_at, tool_call_id);
    `);
  },
};

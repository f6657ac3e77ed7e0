/**
 * The ground schema every domain stands on: settings, secrets, sessions and their stacks, history, tool rows,
 * decisions, tool discovery, permission groups and rules, scratchpad and grants (docs/architecture.md "Persistence").
 * Domain-specific tables that only one domain reads arrive in that domain's own migration range.
 * Check ids (C4) are listed in docs/security-checks.md.
 */
import type { Migration } from '../migrate';

export const foundationSchema: Migration = {
  version: 1,
  name: 'foundation',
  up(db) {
    db.exec(`
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );

      -- Values are ciphertext (safeStorage on desktop, a user-only key file on web): never plaintext at rest.
      CREATE TABLE secrets (
        key TEXT PRIMARY KEY,
        value BLOB NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE chat_sessions (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL DEFAULT 'web',
        agent_id TEXT NOT NULL DEFAULT 'main',
        title TEXT NOT NULL DEFAULT '',
        is_interactive INTEGER NOT NULL DEFAULT 1,
        is_ephemeral INTEGER NOT NULL DEFAULT 0,
        run_context TEXT,
        model TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE sources (
        id TEXT PRIMARY KEY,
        active_session_id INTEGER REFERENCES chat_sessions(id) ON DELETE SET NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE chat_sessions_stack (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        agent_id TEXT NOT NULL,
        agent_prompt TEXT,
        depth INTEGER NOT NULL DEFAULT 0,
        parent_tool_call_id TEXT,
        created_at INTEGER NOT NULL,
        terminated_at INTEGER
      );
      CREATE INDEX chat_sessions_stack_session ON chat_sessions_stack(session_id);

      CREATE TABLE chat_history (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        stack_id INTEGER REFERENCES chat_sessions_stack(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'agent')),
        content TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'failed')),
        input_tokens INTEGER,
        output_tokens INTEGER,
        cost REAL,
        model TEXT,
        is_synthetic INTEGER NOT NULL DEFAULT 0,
        reasoning_content TEXT,
        metadata TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX chat_history_session ON chat_history(session_id, id);

      CREATE TABLE chat_llm_tools (
        id INTEGER PRIMARY KEY,
        tool_call_id TEXT NOT NULL UNIQUE,
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        message_id INTEGER REFERENCES chat_history(id) ON DELETE CASCADE,
        stack_id INTEGER REFERENCES chat_sessions_stack(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        effective_arguments TEXT,
        args_hash TEXT,
        status TEXT NOT NULL DEFAULT 'running'
          CHECK (status IN ('running', 'pending', 'done', 'failed', 'cancelled', 'rejected')),
        result TEXT,
        result_type TEXT NOT NULL DEFAULT 'string' CHECK (result_type IN ('string', 'json')),
        decision TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX chat_llm_tools_session ON chat_llm_tools(session_id, id);
      CREATE INDEX chat_llm_tools_status ON chat_llm_tools(status);

      -- The audit of every gate decision (C4): written in the same transaction as the tool row it decides.
      CREATE TABLE tool_decisions (
        id INTEGER PRIMARY KEY,
        tool_call_id TEXT NOT NULL,
        session_id INTEGER,
        action TEXT NOT NULL CHECK (action IN ('allow', 'deny', 'require')),
        reason_kind TEXT NOT NULL,
        rule_id INTEGER,
        detail TEXT NOT NULL DEFAULT '',
        args_hash TEXT NOT NULL,
        actor TEXT NOT NULL DEFAULT 'policy',
        created_at INTEGER NOT NULL
      );
      CREATE INDEX tool_decisions_call ON tool_decisions(tool_call_id);

      CREATE TABLE known_tools (
        name TEXT PRIMARY KEY,
        category TEXT,
        first_seen_at INTEGER NOT NULL
      );

      CREATE TABLE tool_permission_groups (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL
      );

      CREATE TABLE approval_rules (
        id INTEGER PRIMARY KEY,
        group_id TEXT NOT NULL DEFAULT 'default' REFERENCES tool_permission_groups(id) ON DELETE CASCADE,
        agent_id TEXT,
        source TEXT,
        tool_pattern TEXT NOT NULL,
        path_pattern TEXT,
        command_pattern TEXT,
        action TEXT NOT NULL CHECK (action IN ('require', 'allow', 'deny')),
        note TEXT,
        priority INTEGER NOT NULL DEFAULT 100,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX approval_rules_group ON approval_rules(group_id, priority, id);

      CREATE TABLE session_scratchpad (
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (session_id, key)
      );

      CREATE TABLE session_mcp_grants (
        session_id INTEGER NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
        mcp_name TEXT NOT NULL,
        UNIQUE (session_id, mcp_name)
      );

      CREATE TABLE stack_mcp_grants (
        stack_id INTEGER NOT NULL REFERENCES chat_sessions_stack(id) ON DELETE CASCADE,
        mcp_name TEXT NOT NULL,
        UNIQUE (stack_id, mcp_name)
      );
    `);
  },
};

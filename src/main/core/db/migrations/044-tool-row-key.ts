/**
 * A tool row's own key (docs/architecture.md, "The path of one tool call"). `tool_call_id` used to hold the
 * provider's id and was UNIQUE across the whole database, so a model (or a local server) that reused an id from an
 * earlier round or session failed the turn with a constraint error. Now `tool_call_id` is the app's key for the
 * call, unique in the database and minted by the session store; the provider's id moves to `provider_call_id`,
 * unique only within its assistant message, and is what the model sees when the history is replayed.
 *
 * Existing rows keep their `tool_call_id` (it was unique, so it stays a valid key) and copy it as their provider id.
 */
import type { Migration } from '../migrate';

export const toolRowKey: Migration = {
  version: 44,
  name: 'tool-row-key',
  up(db) {
    db.exec(`
      ALTER TABLE chat_llm_tools ADD COLUMN provider_call_id TEXT NOT NULL DEFAULT '';
      UPDATE chat_llm_tools SET provider_call_id = tool_call_id;
      CREATE UNIQUE INDEX chat_llm_tools_provider_call ON chat_llm_tools(message_id, provider_call_id);
    `);
  },
};

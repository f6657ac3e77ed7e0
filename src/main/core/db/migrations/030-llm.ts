/**
 * LLM providers and their models (docs/architecture.md "Models and fallback"). A provider is an endpoint of one wire
 * kind with a base URL; its API key is a secret (`llm.provider.<id>.api_key` in `secrets`), never a column here. Models
 * are tried in `priority` order (ascending; ties by id) for `auto` and for fallback.
 */
import type { Migration } from '../migrate';

export const llmSchema: Migration = {
  version: 30,
  name: 'llm-providers',
  up(db) {
    db.exec(`
      CREATE TABLE llm_providers (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('open_ai', 'anthropic', 'openrouter', 'deepseek', 'ollama', 'lm_studio', 'openai_compatible')),
        name TEXT NOT NULL UNIQUE,
        base_url TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );

      CREATE TABLE llm_models (
        id INTEGER PRIMARY KEY,
        provider_id INTEGER NOT NULL REFERENCES llm_providers(id) ON DELETE CASCADE,
        model_id TEXT NOT NULL,
        display_name TEXT NOT NULL DEFAULT '',
        priority INTEGER NOT NULL,
        input_price_per_m REAL CHECK (input_price_per_m IS NULL OR input_price_per_m >= 0),
        output_price_per_m REAL CHECK (output_price_per_m IS NULL OR output_price_per_m >= 0),
        context_window INTEGER CHECK (context_window IS NULL OR context_window > 0),
        enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (provider_id, model_id)
      );
      CREATE INDEX llm_models_priority ON llm_models(priority, id);
    `);
  },
};

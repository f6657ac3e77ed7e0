/**
 * The one writer of the `plugins` table (docs/plugins.md). A row holds `enabled` and the non-secret config fields
 * as JSON; each secret field is stored in the secret store under `plugin.<name>.<field>`. `save` writes the row and
 * the secrets in one SQLite transaction (the secret store lives in the same database), so a failure part-way leaves
 * the previous config whole: nothing is ever half-saved.
 */
import type { Db } from '../db/database';
import { nowMs } from '../db/database';
import { PLUGIN_SECRET_PREFIX, type SecretStore } from '../secrets/secret-store';

export interface StoredPlugin {
  enabled: boolean;
  /** Non-secret fields only. */
  config: Record<string, unknown>;
}

export function pluginSecretKey(plugin: string, field: string): string {
  return `${PLUGIN_SECRET_PREFIX}${plugin}.${field}`;
}

export class PluginStore {
  private readonly statements;

  constructor(
    private readonly db: Db,
    private readonly secrets: SecretStore,
  ) {
    this.statements = {
      get: db.prepare('SELECT enabled, config FROM plugins WHERE name = ?'),
      upsert: db.prepare(
        `INSERT INTO plugins (name, enabled, config, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(name) DO UPDATE SET enabled = excluded.enabled, config = excluded.config, updated_at = excluded.updated_at`,
      ),
    };
  }

  get(name: string): StoredPlugin | null {
    const row = this.statements.get.get(name) as { enabled: number; config: string } | undefined;
    if (!row) return null;
    let config: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(row.config);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) config = parsed as Record<string, unknown>;
    } catch {
      config = {}; // a damaged row falls back to the schema's defaults rather than taking the plugin list down
    }
    return { enabled: row.enabled === 1, config };
  }

  secret(plugin: string, field: string): string | null {
    return this.secrets.get(pluginSecretKey(plugin, field));
  }

  hasSecret(plugin: string, field: string): boolean {
    return this.secrets.has(pluginSecretKey(plugin, field));
  }

  /**
   * Writes `enabled`, the plain fields and the secret fields together. A secret given as `null` is deleted; one
   * absent from `secretValues` is left as it is.
   */
  save(
    name: string,
    enabled: boolean,
    plain: Record<string, unknown>,
    secretValues: Record<string, string | null>,
  ): void {
    this.db.transaction(() => {
      this.statements.upsert.run(name, enabled ? 1 : 0, JSON.stringify(plain), nowMs());
      for (const [field, value] of Object.entries(secretValues)) this.secrets.set(pluginSecretKey(name, field), value);
    })();
  }
}

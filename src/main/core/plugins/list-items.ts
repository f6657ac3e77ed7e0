/**
 * `list_items(type=plugins)` rows (docs/agents.md "list_items"): one row per plugin with its state, and of its
 * configuration only the names: the keys it takes and which secrets are set, never their values.
 */
import type { PluginManager } from './plugin-manager';

export function listPluginItems(plugins: PluginManager): Record<string, unknown>[] {
  return plugins.list().map((p) => ({
    name: p.name,
    title: p.title,
    description: p.description,
    enabled: p.enabled,
    ready: p.isReady,
    problem: p.problem,
    config_keys: Object.keys((p.schema.properties as object | undefined) ?? {}),
    secrets_set: p.secretFields.filter((f) => f.isSet).map((f) => f.name),
  }));
}

/**
 * What the config tools need of the services they drive (docs/plugins.md), declared beside the tools so that tools/
 * stays a leaf (docs/architecture.md "Layers inside the core"): the secret store (`SecretStore` implements
 * `SecretsPort`) and the plugins (`PluginManager` implements `PluginsPort`). The composition root hands them in.
 */

/** The secret store as `set_secret` and `list_secrets` use it: keys and writes, never a value read back. */
export interface SecretsPort {
  /** Stores `value` under `key` (null or empty deletes); true when stored. Throws `SecretKeyError` for a bad key. */
  set(key: string, value: string | null): boolean;
  /** The stored keys, optionally those matching a glob. */
  list(pattern?: string): string[];
}

/** A refusal of a plugin's settings or state, written for a person and the model; nothing was written. */
export class PluginError extends Error {
  override readonly name = 'PluginError';
}

/** What a plugin shows of itself: its state and settings, its secret fields as set or not only. */
export interface PluginView {
  name: string;
  title: string;
  description: string;
  enabled: boolean;
  /** Whether its schema accepts the stored config (a required secret missing makes it false). */
  isReady: boolean;
  /** The first reason it is not ready, for a person and the model to read. */
  problem: string | null;
  /** Plain field values as stored (defaults filled in). */
  config: Record<string, unknown>;
  secretFields: { name: string; isSet: boolean }[];
  /** JSON Schema of the config, for the Settings form. */
  schema: Record<string, unknown>;
  contributes: ('tools' | 'image_provider')[];
}

/** The plugins as `configure_plugin` changes them. */
export interface PluginsPort {
  names(): string[];
  /** The plain (not secret) fields of a plugin's settings; null for a name no plugin has. */
  publicFieldsOf(name: string): readonly string[] | null;
  /** Merges `patch` over the plugin's settings; its new view, or a `PluginError` thrown with nothing written. */
  configure(name: string, patch: Record<string, unknown>): PluginView;
}

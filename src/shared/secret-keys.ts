/**
 * The names of stored secrets (docs/plugins.md "Secrets"): which prefixes belong to the app, to MCP servers and to
 * plugins, and the error a bad key is refused with. Pure rules, shared by the secret store, the tools that set and
 * list secrets and the handlers of Settings.
 */

/** Keys the app itself writes (`llm.provider.<id>.api_key`); not for the model's `set_secret`. */
export const RESERVED_SECRET_PREFIX = 'llm.';
/** The app's own keys outside the providers (`app.web.access_token`): neither the model's nor Settings'. */
export const APP_SECRET_PREFIX = 'app.';
/** MCP server credentials (`mcp.<server>.credential`, docs/mcp.md): set only from Settings → MCP. */
export const MCP_SECRET_PREFIX = 'mcp.';
/** A plugin's secret fields (`plugin.<name>.<field>`, docs/plugins.md): set only through that plugin's settings. */
export const PLUGIN_SECRET_PREFIX = 'plugin.';

/** A key the secret store refuses (its message names the key's rule or the key, never a value). */
export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyError';
  }
}

/** Whether `key` starts with `prefix` in any letter case: `LLM.provider.1.api_key` is the app's key all the same. */
export const hasSecretPrefix = (key: string, prefix: string): boolean =>
  key.slice(0, prefix.length).toLowerCase() === prefix;

/** Keys that are the app's own (providers, MCP servers, the app): neither the model's to set nor to list. */
export function isReservedSecretKey(key: string): boolean {
  return [RESERVED_SECRET_PREFIX, MCP_SECRET_PREFIX, APP_SECRET_PREFIX].some((prefix) => hasSecretPrefix(key, prefix));
}

/**
 * Handlers of the `plugins:*` and `secrets:*` calls (docs/plugins.md): thin adapters over the plugin manager and
 * the secret store. Refusals carry the manager's or store's message as `invalid_input` / `not_found`; values of
 * secrets never leave.
 */
import { BridgeError } from '../../../shared/contract/define';
import { PluginError, type PluginManager } from '../plugins/index';
import {
  hasSecretPrefix,
  isReservedSecretKey,
  PLUGIN_SECRET_PREFIX,
  SecretKeyError,
  type SecretStore,
} from '../secrets/secret-store';
import type { BridgeHandlers } from './handlers';

type Channels =
  | 'plugins:list'
  | 'plugins:configure'
  | 'plugins:setEnabled'
  | 'secrets:list'
  | 'secrets:set'
  | 'secrets:delete';

function refuseManagedElsewhere(key: string): void {
  if (isReservedSecretKey(key))
    throw new BridgeError(
      'invalid_input',
      'key: provider API keys are set in Settings → Providers, MCP server credentials in Settings → MCP.',
    );
  if (hasSecretPrefix(key, PLUGIN_SECRET_PREFIX))
    throw new BridgeError('invalid_input', "key: a plugin's secret fields are set in Settings → Plugins.");
}

function asBridgeError(error: unknown): never {
  if (error instanceof PluginError)
    throw new BridgeError(/no plugin named/.test(error.message) ? 'not_found' : 'invalid_input', error.message);
  if (error instanceof SecretKeyError) throw new BridgeError('invalid_input', `key: ${error.message}`);
  throw error;
}

export function createPluginHandlers(deps: {
  plugins: PluginManager;
  secrets: SecretStore;
}): Pick<BridgeHandlers, Channels> {
  const { plugins, secrets } = deps;
  const attempt = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (error) {
      return asBridgeError(error);
    }
  };
  return {
    'plugins:list': () => ({ plugins: plugins.list() }),
    'plugins:configure': ({ name, config }) => ({ plugin: attempt(() => plugins.configure(name, config)) }),
    'plugins:setEnabled': ({ name, enabled }) => ({ plugin: attempt(() => plugins.setEnabled(name, enabled)) }),
    'secrets:list': () => ({
      keys: secrets.list().filter((k) => !isReservedSecretKey(k) && !hasSecretPrefix(k, PLUGIN_SECRET_PREFIX)),
    }),
    'secrets:set': ({ key, value }) => {
      refuseManagedElsewhere(key);
      attempt(() => secrets.set(key, value));
      return { ok: true as const };
    },
    'secrets:delete': ({ key }) => {
      refuseManagedElsewhere(key);
      attempt(() => secrets.delete(key));
      return { ok: true as const };
    },
  };
}

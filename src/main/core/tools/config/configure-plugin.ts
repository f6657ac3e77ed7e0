/**
 * `configure_plugin` (docs/plugins.md): changes a plugin's settings. The given fields are merged over the current
 * ones and the whole is validated by the plugin's schema; a refusal names the field and writes nothing. Secret
 * fields go to the secret store; the result shows which are set, never their values.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { label } from '../fs/common';
import { unprovenPaths } from '../secret-paths';
import type { Tool } from '../tool';
import { PluginError, type PluginsPort, type PluginView } from './ports';

/** What the model and list_items see of a plugin: state and settings, secret fields as set/unset only. */
export function pluginSummary(view: PluginView): Record<string, unknown> {
  return {
    name: view.name,
    title: view.title,
    enabled: view.enabled,
    ready: view.isReady,
    ...(view.problem ? { problem: view.problem } : {}),
    config: view.config,
    secrets: Object.fromEntries(view.secretFields.map((f) => [f.name, f.isSet ? 'set' : 'not set'])),
    config_keys: Object.keys((view.schema.properties as Record<string, unknown> | undefined) ?? {}),
  };
}

export function createConfigurePluginTool(plugins: PluginsPort): Tool {
  return defineTool({
    name: TN.CONFIGURE_PLUGIN,
    description:
      `Change a plugin's settings (plugins: ${plugins.names().join(', ')}). Only the given fields change; null resets a field. ` +
      'Enable or disable a plugin with toggle_item.',
    input: z.object({
      name: z.string().min(1).max(100).describe('The plugin name.'),
      config: z
        .record(z.string(), z.unknown())
        .describe('Settings to change, e.g. {"base_url": "http://127.0.0.1:8000/v1"}.'),
    }),
    kind: 'config',
    category: 'config',
    // Every setting not proven public is sealed like set_secret's value: a plugin's secret fields (an API key …),
    // a field its schema does not have, and every setting of a plugin name the registry does not know (misspelt).
    secretPaths: (args) =>
      unprovenPaths(args.config, (typeof args.name === 'string' && plugins.publicFieldsOf(args.name)) || [], [
        'config',
      ]),
    describe: (a, length) => label(TN.CONFIGURE_PLUGIN, a.name, length),
    execute(a) {
      try {
        return {
          kind: 'completed',
          resultType: 'json',
          result: JSON.stringify(pluginSummary(plugins.configure(a.name, a.config))),
        };
      } catch (error) {
        if (error instanceof PluginError) throw new ToolError(error.message);
        throw error;
      }
    },
  });
}

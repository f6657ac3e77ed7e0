/**
 * The tools that need the plugin manager and the secret store (docs/plugins.md): the Config-category secrets and
 * plugin tools (lazy `config` group) and the always-on image tools. Registered by the composition root beside the
 * built-in tools.
 */
import { createImageGenerateTool, createImageProvidersListTool } from '../image/image-generate';
import type { ImageProvidersPort } from '../image/image-provider';
import type { Tool } from '../tool';
import { createConfigurePluginTool } from './configure-plugin';
import type { PluginsPort, SecretsPort } from './ports';
import { createListSecretsTool, createSetSecretTool } from './secrets-tools';

export function createPluginAndSecretTools(deps: {
  plugins: PluginsPort & ImageProvidersPort;
  secrets: SecretsPort;
}): Tool[] {
  return [
    createSetSecretTool(deps.secrets),
    createListSecretsTool(deps.secrets),
    createConfigurePluginTool(deps.plugins),
    createImageProvidersListTool(deps.plugins),
    createImageGenerateTool(deps.plugins),
  ];
}

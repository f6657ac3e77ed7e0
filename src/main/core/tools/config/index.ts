/**
 * The tools that need the plugin manager and the secret store (docs/plugins.md): the Config-category secrets and
 * plugin tools (lazy `config` group) and the always-on image tools. Registered by the composition root beside the
 * built-in tools.
 */
import type { PluginManager } from '../../plugins/index';
import type { SecretStore } from '../../secrets/secret-store';
import { createImageGenerateTool, createImageProvidersListTool } from '../image/image-generate';
import type { Tool } from '../tool';
import { createConfigurePluginTool } from './configure-plugin';
import { createListSecretsTool, createSetSecretTool } from './secrets-tools';

export function createPluginAndSecretTools(deps: { plugins: PluginManager; secrets: SecretStore }): Tool[] {
  return [
    createSetSecretTool(deps.secrets),
    createListSecretsTool(deps.secrets),
    createConfigurePluginTool(deps.plugins),
    createImageProvidersListTool(deps.plugins),
    createImageGenerateTool(deps.plugins),
  ];
}

/**
 * The plugins this build ships, in one explicit list (docs/plugins.md), and the manager built from them.
 */
import { comfyUiPlugin } from './image/comfyui';
import { openAiImagesPlugin } from './image/openai-images';
import type { PluginDefinition } from './plugin';

export const BUILTIN_PLUGINS: readonly PluginDefinition[] = [openAiImagesPlugin, comfyUiPlugin];

export { listPluginItems } from './list-items';
export { PluginManager, PluginError, type PluginView, type PluginPatch } from './plugin-manager';
export { PluginStore, pluginSecretKey } from './plugin-store';
export {
  definePlugin,
  type PluginDefinition,
  type ImageProvider,
  type GeneratedImage,
  type ImageRequest,
} from './plugin';

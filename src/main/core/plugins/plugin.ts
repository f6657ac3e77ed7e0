/**
 * What a plugin is (docs/plugins.md): an in-process extension with a name, a zod config schema, the fields of that
 * schema that are secrets, and what it contributes once enabled: tools offered to the model, and/or an image
 * provider behind `image_generate`. Plugins are listed explicitly (no discovery from disk), so the app never loads
 * code a person did not ship with it.
 *
 * A plugin's config reaches it whole (secrets included) only at the moment it builds its tools or provider; the
 * stored form keeps secret fields in the secret store (see plugin-store.ts).
 */
import type { z } from 'zod';
import type { ImageProvider } from '../tools/image/image-provider';
import type { Tool } from '../tools/tool';

export type { GeneratedImage, ImageProvider, ImageRequest } from '../tools/image/image-provider';

export const PLUGIN_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface PluginDefinition<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Every field must have a default or be optional, so an unconfigured plugin still parses. */
  readonly configSchema: S;
  /** Fields of `configSchema` kept in the secret store and never returned. */
  readonly secretFields: readonly (keyof z.output<S> & string)[];
  /** Tools this plugin offers the model while enabled. */
  createTools?(config: z.output<S>): Tool[];
  /** An image provider (`image_generate`) while enabled. */
  createImageProvider?(config: z.output<S>): ImageProvider;
}

/** Lets a definition keep its own config type while living in one list of plugins. */
export function definePlugin<S extends z.ZodObject>(def: PluginDefinition<S>): PluginDefinition {
  if (!PLUGIN_NAME.test(def.name)) throw new Error(`plugin name ${def.name} must match ${PLUGIN_NAME}`);
  for (const field of def.secretFields) {
    if (!(field in def.configSchema.shape))
      throw new Error(`plugin ${def.name}: secret field ${field} is not in its schema`);
  }
  return def as unknown as PluginDefinition;
}

/**
 * Plugins and secrets (docs/plugins.md): the `plugins:*` calls behind Settings → Plugins, and the `secrets:*` calls
 * behind Settings → Secrets. Secret values only go in: nothing returns one; views say whether a secret is set.
 */
import { z } from 'zod';
import { defineCall } from './define';

const pluginName = z.string().min(1).max(100);
const secretKey = z.string().min(1).max(200);

export const PluginViewSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  isReady: z.boolean(),
  problem: z.string().nullable(),
  config: z.record(z.string(), z.unknown()),
  secretFields: z.array(z.object({ name: z.string(), isSet: z.boolean() })),
  schema: z.record(z.string(), z.unknown()),
  contributes: z.array(z.enum(['tools', 'image_provider'])),
});
export type PluginViewShape = z.infer<typeof PluginViewSchema>;

const ok = z.object({ ok: z.literal(true) });

export const pluginCalls = {
  'plugins:list': defineCall(z.object({}).strict(), z.object({ plugins: z.array(PluginViewSchema) })),
  /** Merges `config` over the current settings; `null` resets a field (deletes a secret). Refused whole or saved whole. */
  'plugins:configure': defineCall(
    z
      .object({
        name: pluginName,
        config: z
          .record(z.string().max(100), z.unknown())
          .refine((c) => Object.keys(c).length <= 100, 'too many fields'),
      })
      .strict(),
    z.object({ plugin: PluginViewSchema }),
  ),
  'plugins:setEnabled': defineCall(
    z.object({ name: pluginName, enabled: z.boolean() }).strict(),
    z.object({ plugin: PluginViewSchema }),
  ),
  /** Keys the person manages here: neither provider keys (`llm.`) nor plugin fields (`plugin.`). */
  'secrets:list': defineCall(z.object({}).strict(), z.object({ keys: z.array(z.string()) })),
  'secrets:set': defineCall(
    z
      .object({
        key: secretKey,
        value: z
          .string()
          .min(1, 'a value is required')
          .max(64 * 1024),
      })
      .strict(),
    ok,
  ),
  'secrets:delete': defineCall(z.object({ key: secretKey }).strict(), ok),
} as const;

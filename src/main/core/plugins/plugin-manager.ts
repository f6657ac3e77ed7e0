/**
 * `PluginManager` (docs/plugins.md): the plugins this build ships, their stored state, and what the enabled ones
 * contribute (tools for the model, image providers for `image_generate`).
 * - `configure(name, patch)` merges the patch over the current config, validates the whole result with the
 *   plugin's zod schema, and saves it in one transaction: an unknown plugin, an unknown field or a value that fails
 *   its schema is refused with a message naming the field, and nothing is written.
 * - Views (`list`) carry config keys and plain values, and for secret fields only whether one is set.
 * - A plugin whose `createTools` / `createImageProvider` throws is reported by name and left out; it never takes
 *   the others down.
 */
import { z } from 'zod';
import { PluginError, type PluginsPort, type PluginView } from '../tools/config/ports';
import type { ImageProvidersPort } from '../tools/image/image-provider';
import type { Tool } from '../tools/tool';
import type { ImageProvider, PluginDefinition } from './plugin';
import type { PluginStore } from './plugin-store';

export { PluginError, type PluginView };

export type PluginPatch = Record<string, unknown>;

function describeIssues(name: string, error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : name}: ${i.message}`).join('; ');
}

export class PluginManager implements PluginsPort, ImageProvidersPort {
  private readonly byName = new Map<string, PluginDefinition>();
  private readonly listeners = new Set<() => void>();

  constructor(
    definitions: readonly PluginDefinition[],
    private readonly store: PluginStore,
    private readonly log: (message: string, fields?: Record<string, unknown>) => void = () => {},
  ) {
    for (const def of definitions) {
      if (this.byName.has(def.name)) throw new Error(`two plugins are named ${def.name}`);
      this.byName.set(def.name, def);
    }
  }

  /** Fires after any configure or toggle, so the owner can re-sync the tools the plugins contribute. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** The secret fields of a plugin ([] for an unknown name). */
  secretFieldsOf(name: string): readonly string[] {
    return this.byName.get(name)?.secretFields ?? [];
  }

  /**
   * The settings of a plugin proven not to hold a secret: its schema's fields but the secret ones; null for a name
   * the registry does not know, whose every setting is then sealed (docs/plugins.md "Secret arguments").
   */
  publicFieldsOf(name: string): readonly string[] | null {
    const def = this.byName.get(name);
    if (!def) return null;
    const secret = new Set(def.secretFields);
    return Object.keys(def.configSchema.shape as Record<string, unknown>).filter((k) => !secret.has(k));
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  private definition(name: string): PluginDefinition {
    const def = this.byName.get(name);
    if (!def)
      throw new PluginError(`There is no plugin named "${name}". Plugins: ${this.names().join(', ') || 'none'}.`);
    return def;
  }

  /** Stored plain fields plus the secret values: the whole config, unvalidated. */
  private rawConfig(def: PluginDefinition): Record<string, unknown> {
    const stored = this.store.get(def.name)?.config ?? {};
    const raw: Record<string, unknown> = { ...stored };
    for (const field of def.secretFields) {
      const value = this.store.secret(def.name, field);
      if (value !== null) raw[field] = value;
    }
    return raw;
  }

  private parsed(
    def: PluginDefinition,
  ): { ok: true; config: Record<string, unknown> } | { ok: false; problem: string } {
    const result = def.configSchema.safeParse(this.rawConfig(def));
    return result.success
      ? { ok: true, config: result.data as Record<string, unknown> }
      : { ok: false, problem: describeIssues(def.name, result.error) };
  }

  view(name: string): PluginView {
    const def = this.definition(name);
    const stored = this.store.get(name);
    const parsed = this.parsed(def);
    const secret = new Set<string>(def.secretFields);
    const plain: Record<string, unknown> = {};
    const source = parsed.ok ? parsed.config : (stored?.config ?? {});
    for (const [key, value] of Object.entries(source)) if (!secret.has(key)) plain[key] = value;
    const contributes: PluginView['contributes'] = [];
    if (def.createTools) contributes.push('tools');
    if (def.createImageProvider) contributes.push('image_provider');
    return {
      name,
      title: def.title,
      description: def.description,
      enabled: stored?.enabled ?? false,
      isReady: parsed.ok,
      problem: parsed.ok ? null : parsed.problem,
      config: plain,
      secretFields: def.secretFields.map((f) => ({ name: f, isSet: this.store.hasSecret(name, f) })),
      schema: z.toJSONSchema(def.configSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
      contributes,
    };
  }

  list(): PluginView[] {
    return this.names().map((n) => this.view(n));
  }

  /**
   * Merges `patch` over the current config. A field set to `null` goes back to its default (a secret field set to
   * `null` or `''` is deleted). Returns the new view; throws PluginError (nothing written) when the result fails.
   */
  configure(name: string, patch: PluginPatch): PluginView {
    const def = this.definition(name);
    const shape = def.configSchema.shape as Record<string, unknown>;
    const unknown = Object.keys(patch).filter((k) => !(k in shape));
    if (unknown.length)
      throw new PluginError(
        `${name} has no setting ${unknown.map((k) => `"${k}"`).join(', ')}. Settings: ${Object.keys(shape).join(', ')}.`,
      );
    const merged = { ...this.rawConfig(def) };
    for (const [key, value] of Object.entries(patch)) {
      if (value === null || (value === '' && def.secretFields.includes(key))) delete merged[key];
      else merged[key] = value;
    }
    const result = def.configSchema.safeParse(merged);
    if (!result.success)
      throw new PluginError(`The ${name} settings were not saved: ${describeIssues(name, result.error)}.`);
    const plain: Record<string, unknown> = {};
    const secretValues: Record<string, string | null> = {};
    for (const key of Object.keys(shape)) {
      if (def.secretFields.includes(key)) {
        if (key in patch) secretValues[key] = typeof merged[key] === 'string' ? (merged[key] as string) : null;
      } else if (key in merged) plain[key] = merged[key];
    }
    this.store.save(name, this.store.get(name)?.enabled ?? false, plain, secretValues);
    this.changed();
    return this.view(name);
  }

  setEnabled(name: string, enabled: boolean): PluginView {
    const def = this.definition(name);
    const stored = this.store.get(name);
    this.store.save(def.name, enabled, stored?.config ?? {}, {});
    this.changed();
    return this.view(name);
  }

  private enabledConfigs(): { def: PluginDefinition; config: Record<string, unknown> }[] {
    const out: { def: PluginDefinition; config: Record<string, unknown> }[] = [];
    for (const def of this.byName.values()) {
      if (!this.store.get(def.name)?.enabled) continue;
      const parsed = this.parsed(def);
      if (parsed.ok) out.push({ def, config: parsed.config });
      else this.log(`plugin ${def.name} is enabled but its settings are incomplete`, { problem: parsed.problem });
    }
    return out;
  }

  /** The tools of every enabled, ready plugin; offered to the model as injected tools. */
  tools(): Tool[] {
    const tools: Tool[] = [];
    for (const { def, config } of this.enabledConfigs()) {
      if (!def.createTools) continue;
      try {
        tools.push(...def.createTools(config));
      } catch (error) {
        this.log(`plugin ${def.name} could not build its tools`, {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return tools;
  }

  /**
   * Keeps `registry` holding exactly the tools of the enabled plugins: registers them now and after every change.
   * A plugin tool named like a built-in is left out (the built-in wins) and logged. Returns the unsubscribe.
   */
  syncToolsInto(registry: {
    register(tool: Tool): void;
    unregister(name: string): boolean;
    has(name: string): boolean;
  }): () => void {
    let registered: string[] = [];
    const sync = () => {
      for (const name of registered) registry.unregister(name);
      registered = [];
      for (const tool of this.tools()) {
        if (registry.has(tool.name)) {
          this.log(`a plugin tool is named like a tool that exists already; it is left out`, { tool: tool.name });
          continue;
        }
        try {
          registry.register(tool);
          registered.push(tool.name);
        } catch (error) {
          this.log('a plugin tool was refused by the registry', {
            tool: tool.name,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    };
    sync();
    return this.onDidChange(sync);
  }

  /** Image providers of the enabled, ready plugins, by plugin name. */
  imageProviders(): { name: string; title: string; provider: ImageProvider }[] {
    const out: { name: string; title: string; provider: ImageProvider }[] = [];
    for (const { def, config } of this.enabledConfigs()) {
      if (!def.createImageProvider) continue;
      try {
        out.push({ name: def.name, title: def.title, provider: def.createImageProvider(config) });
      } catch (error) {
        this.log(`plugin ${def.name} could not build its image provider`, {
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return out;
  }
}

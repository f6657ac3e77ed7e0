/**
 * `toggle_item`: one enable/disable tool for the kinds of items the app has (docs/mcp.md "Config tools"). Each
 * kind's owner registers its toggler (`ItemTogglers.register`): the MCP layer registers `mcp` (a disabled server
 * is stopped, its process group killed; enabling starts it in the background). A kind with no toggler says so.
 * Config category: offered after `activate_tools(["config"])`, every call gated.
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool, ToolError } from '../define-tool';
import { label } from '../fs/common';
import type { Tool } from '../tool';

export const TOGGLE_KINDS = ['mcp', 'plugin', 'cron'] as const;
export type ToggleKind = (typeof TOGGLE_KINDS)[number];

/** Enables or disables one item; resolves to the sentence the model reads, throws `ToolError` for a bad name. */
export type ItemToggler = (name: string, enabled: boolean) => Promise<string>;

export class ItemTogglers {
  private readonly togglers = new Map<ToggleKind, ItemToggler>();

  register(kind: ToggleKind, toggler: ItemToggler): () => void {
    if (this.togglers.has(kind)) throw new Error(`toggle_item already has a toggler for "${kind}".`);
    this.togglers.set(kind, toggler);
    return () => {
      if (this.togglers.get(kind) === toggler) this.togglers.delete(kind);
    };
  }

  get(kind: ToggleKind): ItemToggler | undefined {
    return this.togglers.get(kind);
  }
}

export function createToggleItemTool(togglers: ItemTogglers): Tool {
  return defineTool({
    name: TN.TOGGLE_ITEM,
    description:
      'Enable or disable an item without deleting it: an MCP server (kind "mcp"), a plugin or a scheduled job. A disabled MCP server is stopped.',
    input: z.object({
      kind: z.enum(TOGGLE_KINDS).describe('What kind of item.'),
      name: z.string().min(1).max(200).describe('Its name (see list_items).'),
      enabled: z.boolean().describe('true to enable, false to disable.'),
    }),
    kind: 'config',
    category: 'config',
    describe: (a, length) => label(TN.TOGGLE_ITEM, `${a.enabled ? 'enable' : 'disable'} ${a.kind} ${a.name}`, length),
    async executeAsync({ kind, name, enabled }) {
      const toggler = togglers.get(kind);
      if (!toggler) throw new ToolError(`This app cannot toggle items of kind "${kind}" yet.`);
      return toggler(name, enabled);
    },
  });
}

/** The MCP kind: flag plus live effect (stop on disable, background start on enable). */
export function mcpToggler(mcp: {
  repo: { get(name: string): unknown; list(): { name: string }[] };
  setEnabled(name: string, enabled: boolean): Promise<{ state: string }>;
}): ItemToggler {
  return async (name, enabled) => {
    if (!mcp.repo.get(name))
      throw new ToolError(
        `There is no MCP server named "${name}". Servers: ${
          mcp.repo
            .list()
            .map((s) => s.name)
            .join(', ') || 'none'
        }.`,
      );
    const view = await mcp.setEnabled(name, enabled);
    return enabled
      ? `Enabled MCP server "${name}" (now ${view.state}).`
      : `Disabled MCP server "${name}"; it was stopped.`;
  };
}

/** The plugin kind: the plugin manager's own switch (its tools follow through `syncToolsInto`). */
export function pluginToggler(plugins: {
  setEnabled(name: string, enabled: boolean): unknown;
  names(): string[];
}): ItemToggler {
  return async (name, enabled) => {
    if (!plugins.names().includes(name))
      throw new ToolError(`There is no plugin named "${name}". Plugins: ${plugins.names().join(', ') || 'none'}.`);
    try {
      plugins.setEnabled(name, enabled);
    } catch (error) {
      throw new ToolError((error as Error).message);
    }
    return `${enabled ? 'Enabled' : 'Disabled'} plugin "${name}".`;
  };
}

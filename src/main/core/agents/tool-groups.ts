/**
 * The built-in `config` tool group (docs/agents.md "activate_tools"): the registry's Config-category tools, offered
 * only after `activate_tools(["config"])`, and filtered like every built-in (a Deny rule still hides them). One
 * exception stays always-on: `image_generate`, which acts only through the providers the person set up and which
 * every agent may need without asking to be shown it first (so it is no settings tool).
 */
import { TN } from '../../../shared/tool-names';
import type { ToolSpec } from '../llm/types';
import type { ToolGroupSource } from './group-registry';
import type { OpenAiToolDefinition } from '../tools/tool';

export const CONFIG_GROUP = 'config';
const ALWAYS_ON_CONFIG: ReadonlySet<string> = new Set([TN.IMAGE_GENERATE]);

/** A registry definition as the model sees it (the one conversion; tool-sets.ts uses it too). */
export const toSpec = (d: OpenAiToolDefinition): ToolSpec => ({
  name: d.function.name,
  description: d.function.description,
  parameters: d.function.parameters,
});

export function configGroupSource(tools: { openaiDefinitionsConfigOnly(): OpenAiToolDefinition[] }): ToolGroupSource {
  const specs = () =>
    tools
      .openaiDefinitionsConfigOnly()
      .filter((d) => !ALWAYS_ON_CONFIG.has(d.function.name))
      .map(toSpec);
  return {
    list: () => [
      {
        name: CONFIG_GROUP,
        summary: `the app's settings tools (${
          specs()
            .map((s) => s.name)
            .join(', ') || 'none yet'
        })`,
      },
    ],
    has: (name) => name === CONFIG_GROUP,
    specs: (name) => (name === CONFIG_GROUP ? specs() : []),
    hideByRules: true,
  };
}

/** Whether a registry tool belongs to the lazy config group (so it is not in the always-on base). */
export function isLazyConfigTool(def: OpenAiToolDefinition, category: string | null): boolean {
  return category === 'config' && !ALWAYS_ON_CONFIG.has(def.function.name);
}

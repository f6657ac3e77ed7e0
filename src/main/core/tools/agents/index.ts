/**
 * The registry tools of the agents side (docs/agents.md): `list_items`. Kept apart from `createBuiltinTools`
 * because it needs core services (the agents on disk, the listers) that the file and shell tools do not.
 */
import type { Tool } from '../tool';
import { type AgentsOnDisk, createListItemsTool, type ItemListers } from './list-items';

export interface AgentToolDeps {
  agents: AgentsOnDisk;
  listers: ItemListers;
}

export function createAgentTools(deps: AgentToolDeps): Tool[] {
  return [createListItemsTool(deps)];
}

export { ItemListers } from './list-items';

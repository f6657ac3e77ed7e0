/**
 * The registry tools of the agents side (docs/agents.md): `list_items`. Kept apart from `createBuiltinTools`
 * because it needs core services (the agents on disk, the listers) that the file and shell tools do not.
 */
import type { AgentRegistry } from '../../agents/agent-registry';
import type { Tool } from '../tool';
import { createListItemsTool, type ItemListers } from './list-items';

export interface AgentToolDeps {
  agents: AgentRegistry;
  listers: ItemListers;
}

export function createAgentTools(deps: AgentToolDeps): Tool[] {
  return [createListItemsTool(deps)];
}

export { ItemListers } from './list-items';

/**
 * `list_items`: one listing for `type` ∈ agents, cron, plugins, mcp (docs/agents.md "Session tools"). Agents are read
 * from disk now (a broken agent is named with its problem and skipped); the other types come from listers that
 * their own parts register (`ItemListers.register`: the core registers `plugins`, `mcp` and `cron`). A type
 * with no lister says plainly that the app has none, rather than an empty list that looks like "none set up".
 */
import { z } from 'zod';
import { TN } from '../../../../shared/tool-names';
import { defineTool } from '../define-tool';

export const ITEM_TYPES = ['agents', 'cron', 'plugins', 'mcp'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** What a lister returns: JSON-able rows (the model reads them as JSON). */
export type ItemLister = () => Record<string, unknown>[];

const NONE_YET: Readonly<Record<Exclude<ItemType, 'agents'>, string>> = {
  cron: 'This app has no scheduler.',
  plugins: 'This app has no plugins yet, so there is nothing to list.',
  mcp: 'MCP servers are not available in this app yet.',
};

/** The agents on disk as list_items reads them, each time (agents/agent-registry.ts's `AgentRegistry` is the one). */
export interface AgentsOnDisk {
  list(): {
    agents: readonly {
      id: string;
      name: string;
      description: string;
      instructions: string | null;
      /** Only `task` agents are listed: the ones execute_task starts. */
      type: string;
      client: string | null;
    }[];
    /** Agent folders that could not be read, by folder name, with why. */
    problems: readonly { id: string; error: string }[];
  };
}

export class ItemListers {
  private readonly listers = new Map<Exclude<ItemType, 'agents'>, ItemLister>();

  /** Registers the lister of a type (one per type); returns the disposer. */
  register(type: Exclude<ItemType, 'agents'>, lister: ItemLister): () => void {
    if (this.listers.has(type)) throw new Error(`list_items already has a lister for "${type}".`);
    this.listers.set(type, lister);
    return () => {
      if (this.listers.get(type) === lister) this.listers.delete(type);
    };
  }

  get(type: Exclude<ItemType, 'agents'>): ItemLister | undefined {
    return this.listers.get(type);
  }
}

export function createListItemsTool(deps: { agents: AgentsOnDisk; listers: ItemListers }) {
  return defineTool({
    name: TN.LIST_ITEMS,
    description:
      'List what this app has of one kind: "agents" (the task agents you can start with execute_task: id, name, description, how to call it), "cron" (scheduled jobs), "plugins", or "mcp" (MCP servers).',
    input: z.object({ type: z.enum(ITEM_TYPES).describe('What to list.') }),
    kind: 'read',
    category: 'introspection',
    defaultDecision: 'allow',
    isIdempotent: true,
    describe: ({ type }) => `list_items ${type}`,
    execute({ type }) {
      if (type === 'agents') {
        const { agents, problems } = deps.agents.list();
        const items = agents
          .filter((a) => a.type === 'task')
          .map((a) => ({
            id: a.id,
            name: a.name,
            description: a.description,
            ...(a.instructions ? { instructions: a.instructions } : {}),
            ...(a.client ? { client: a.client } : {}),
          }));
        const body: Record<string, unknown> = { type, items };
        if (problems.length) body.skipped = problems.map((p) => ({ id: p.id, problem: p.error }));
        return { kind: 'completed', result: JSON.stringify(body), resultType: 'json' };
      }
      const lister = deps.listers.get(type);
      if (!lister)
        return {
          kind: 'completed',
          result: JSON.stringify({ type, items: [], note: NONE_YET[type] }),
          resultType: 'json',
        };
      return { kind: 'completed', result: JSON.stringify({ type, items: lister() }), resultType: 'json' };
    },
  });
}

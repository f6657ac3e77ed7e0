/**
 * The agents on disk (docs/agents.md "Agents"): `agents/<id>/AGENT.md` (the instructions, as the system prompt) and
 * `agents/<id>/meta.json` (name, description, how to call it well, type, model, tool allow-list). Read on every
 * request, so an edit applies at the next round without a restart. A broken agent (bad JSON, a missing AGENT.md, an
 * unknown field value) is reported by its folder name and skipped; it never stops the app or hides the others.
 * Limits: no caching (a handful of small files per request is cheaper than a watcher that can miss edits).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** Folder names are agent ids: the same characters a tool name may use, so an id is safe in a path and a label. */
export const AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const MAIN_AGENT_ID = 'main';

const MetaSchema = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().min(1).max(2_000),
    /** How to call this agent well; shown to the caller by `list_items(type=agents)` only when set. */
    instructions: z.string().max(4_000).optional(),
    type: z.enum(['chat', 'task', 'system']),
    /** The model this agent runs on unless the call names one: a model id or a display name (as `/model`). */
    client: z.string().min(1).max(300).optional(),
    model: z.string().min(1).max(300).optional(),
    /** Narrows the built-in tools this agent is offered (never widens them; the gate still decides each call). */
    tools: z.array(z.string().min(1).max(64)).max(200).optional(),
  })
  .strict();

export type AgentType = 'chat' | 'task' | 'system';

export interface AgentDef {
  id: string;
  name: string;
  description: string;
  instructions: string | null;
  type: AgentType;
  /** The model selection of meta.json (`client`, or `model` as its synonym); null = the default. */
  client: string | null;
  tools: string[] | null;
  /** AGENT.md: the agent's system prompt. */
  prompt: string;
}

export interface AgentProblem {
  id: string;
  error: string;
}

export interface AgentListing {
  agents: AgentDef[];
  problems: AgentProblem[];
}

export class AgentRegistry {
  constructor(
    private readonly dir: string,
    private readonly log: (message: string, fields?: Record<string, unknown>) => void = () => {},
  ) {}

  /** Every agent folder, read now. Problems are listed (and logged) by folder name; the rest still load. */
  list(): AgentListing {
    let names: string[];
    try {
      names = readdirSync(this.dir)
        .filter((n) => statSync(join(this.dir, n)).isDirectory())
        .sort();
    } catch (error) {
      return {
        agents: [],
        problems: [{ id: '(agents folder)', error: `Cannot read ${this.dir}: ${(error as Error).message}` }],
      };
    }
    const agents: AgentDef[] = [];
    const problems: AgentProblem[] = [];
    for (const id of names) {
      const loaded = this.load(id);
      if ('error' in loaded) problems.push({ id, error: loaded.error });
      else agents.push(loaded);
    }
    for (const p of problems) this.log('agent skipped', { ...p });
    return { agents, problems };
  }

  /** One agent, read now; an error text written for whoever asked (the model or the person). */
  get(id: string): AgentDef | { error: string } {
    if (!AGENT_ID.test(id)) return { error: `"${id}" is not an agent id (lower-case letters, digits, - and _).` };
    return this.load(id);
  }

  /** The system prompt of an agent: its AGENT.md, or null when it cannot be read. */
  prompt(id: string): string | null {
    if (!AGENT_ID.test(id)) return null;
    try {
      return readFileSync(join(this.dir, id, 'AGENT.md'), 'utf8');
    } catch {
      return null;
    }
  }

  private load(id: string): AgentDef | { error: string } {
    if (!AGENT_ID.test(id)) return { error: `the folder name "${id}" is not a valid agent id` };
    const folder = join(this.dir, id);
    let metaText: string;
    try {
      metaText = readFileSync(join(folder, 'meta.json'), 'utf8');
    } catch {
      return { error: `There is no agent "${id}" (no ${id}/meta.json).` };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(metaText);
    } catch (error) {
      return { error: `${id}/meta.json is not valid JSON: ${(error as Error).message}` };
    }
    const meta = MetaSchema.safeParse(raw);
    if (!meta.success)
      return {
        error: `${id}/meta.json: ${meta.error.issues.map((i) => `${i.path.join('.') || 'file'}: ${i.message}`).join('; ')}`,
      };
    const prompt = this.prompt(id);
    if (prompt === null) return { error: `${id}/AGENT.md is missing or unreadable.` };
    const m = meta.data;
    return {
      id,
      name: m.name,
      description: m.description,
      instructions: m.instructions ?? null,
      type: m.type,
      client: m.client ?? m.model ?? null,
      tools: m.tools ?? null,
      prompt,
    };
  }
}

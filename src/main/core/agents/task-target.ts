/**
 * Whether a task agent may be started from a frame, and on which model (docs/agents.md "Sub-agents"): the checks a
 * sync sub-agent (session/sub-agent-runner.ts), an async task and a cron job (scheduler/schedules.ts) share, each a
 * sentence the model can act on.
 */
import { AgentRegistry, MAIN_AGENT_ID, type AgentDef } from './agent-registry';
import { MAX_AGENT_DEPTH, type AgentFrame } from './frame';

/** A model name from a call or meta.json → the selection the model client takes ('auto' = the default). */
export type ResolveModel = (arg: string) => { ok: boolean; selection: string; message: string };

/** Checks a task request against the caller's frame; the agent, or why it cannot run. */
export function checkTaskTarget(
  agents: AgentRegistry,
  caller: AgentFrame,
  agentId: string,
): AgentDef | { error: string } {
  if (agentId === MAIN_AGENT_ID)
    return {
      error: 'The main agent cannot be started as a task; choose a task agent (list_items with type "agents").',
    };
  if (agentId === caller.agentId)
    return { error: `An agent cannot start itself ("${agentId}"); do the work yourself or choose another task agent.` };
  if (caller.depth + 1 > MAX_AGENT_DEPTH)
    return {
      error: `Sub-agents nest at most ${MAX_AGENT_DEPTH} deep; this call would be depth ${caller.depth + 1}. Do the work yourself.`,
    };
  const agent = agents.get(agentId);
  if ('error' in agent) return { error: `${agent.error} Call list_items with type "agents" to see the task agents.` };
  if (agent.type !== 'task')
    return { error: `"${agentId}" is a ${agent.type} agent; only task agents can be started.` };
  return agent;
}

/** The model a task agent runs on (sync, async or scheduled): the call's, else its meta.json's, else the default. */
export function modelSelectionFor(
  agent: AgentDef,
  client: string | null | undefined,
  resolveModel: ResolveModel,
): { selection: string } | { error: string } {
  const wanted = client ?? agent.client;
  if (!wanted) return { selection: 'auto' };
  const r = resolveModel(wanted);
  return r.ok ? { selection: r.selection } : { error: `Cannot run ${agent.id} on model "${wanted}": ${r.message}` };
}

/**
 * Sync sub-agents (docs/agents.md "Sub-agents"): `execute_task(mode=sync)` and `execute_subtask` run a task agent
 * in a child stack of the same session, inline in the caller's turn, with the caller's cancel signal (so `/stop`
 * reaches every descendant and its running tool), gate, permission group, source and working directory.
 * - Refused with a result the model can read: an unknown or broken agent, an agent that is not a `task` agent,
 *   `main`, the caller itself, a depth over `MAX_AGENT_DEPTH`, an unknown model.
 * - The child's model: the call's `client`, else its meta.json's, else the default; never the caller's choice.
 * - The child's prompt is its first (`agent`) row; its rows carry the stack id; `agent_start` / `agent_done`
 *   frame its events, which all carry `stack_id` (a grandchild's keep their own).
 * - Result: the final answer; a stop → cancelled; too many rounds or a failed model → a plain result saying so.
 */
import type { ChatEventBody } from '../../../shared/contract/chat';
import { MAX_TOOL_ROUNDS, runTurn, type TurnEnv } from './turn';
import type { ModelPort } from './ports';
import type { SessionStore } from './session-store';
import { instructionsPrompts } from './project-instructions';
import { readScratchpad } from './scratchpad-store';
import type { CallEnv } from './tool-call';
import type { SubAgentPort, TaskRequest } from '../tools/session/interface-tool';
import type { ExecutionOutcome } from '../tools/tool';
import type { AgentRegistry, AgentDef } from '../agents/agent-registry';
import type { AgentFrame } from '../agents/frame';
import type { StackStore } from '../agents/stack-store';
import { checkTaskTarget, modelSelectionFor, type ResolveModel } from '../agents/task-target';
import { toolSetFor, withCurrentAllowList, type ToolSetDeps } from '../agents/tool-sets';

export interface SubAgentRunnerDeps {
  model: ModelPort;
  store: SessionStore;
  stacks: StackStore;
  agents: AgentRegistry;
  toolSets: ToolSetDeps;
  /** A model name from a call or meta.json → the selection the model client takes ('auto' = the default). */
  resolveModel: ResolveModel;
}

export class SubAgentRunner implements SubAgentPort {
  constructor(private readonly deps: SubAgentRunnerDeps) {}

  /** The model a child runs on: the call's, else the agent's own, else the default. */
  modelFor(agent: AgentDef, request: TaskRequest): { selection: string } | { error: string } {
    return modelSelectionFor(agent, request.client, this.deps.resolveModel);
  }

  async runSync(parent: CallEnv, toolCallId: string, request: TaskRequest): Promise<ExecutionOutcome> {
    const { deps } = this;
    const caller = parent.synthetic.frame;
    const agent = checkTaskTarget(deps.agents, caller, request.agentId);
    if ('error' in agent) return { kind: 'failed', error: agent.error };
    const model = this.modelFor(agent, request);
    if ('error' in model) return { kind: 'failed', error: model.error };

    const depth = caller.depth + 1;
    const stackId = deps.stacks.open({
      sessionId: parent.sessionId,
      agentId: agent.id,
      prompt: request.prompt,
      depth,
      parentToolCallId: toolCallId,
    });
    deps.store.appendMessage({ sessionId: parent.sessionId, stackId, role: 'agent', content: request.prompt });
    const frame: AgentFrame = {
      sessionId: parent.sessionId,
      stackId,
      depth,
      agentId: agent.id,
      agentName: agent.name,
      agentType: agent.type,
      interactive: caller.interactive,
      toolAllowList: agent.tools,
    };
    // A grandchild's events already carry their own stack id; the spread keeps it.
    const emit = (body: ChatEventBody) => parent.emit({ stack_id: stackId, ...body } as ChatEventBody);
    parent.emit({
      type: 'agent_start',
      stack_id: stackId,
      parent_tool_call_id: toolCallId,
      agent_id: agent.id,
      agent_name: agent.name,
      depth,
      title: request.title,
      model: model.selection === 'auto' ? null : model.selection,
    });
    const env = this.childEnv(parent, frame, emit, model.selection);

    let result: Awaited<ReturnType<typeof runTurn>>;
    try {
      result = await runTurn(env);
    } catch (error) {
      parent.log('sub-agent failed', { agent: agent.id, error: String(error) });
      result = 'failed';
    } finally {
      deps.stacks.close(stackId);
      deps.toolSets.grants.dropStack(stackId);
    }
    const usage = deps.stacks.usage(stackId);
    parent.emit({ type: 'agent_done', stack_id: stackId, status: result, ...usage });
    switch (result) {
      case 'done':
        return {
          kind: 'completed',
          result: deps.stacks.finalAnswer(stackId) || `${agent.name} finished without a final message.`,
        };
      case 'cancelled':
        return { kind: 'cancelled', note: `${agent.name} was stopped (/stop) before it finished.` };
      case 'exhausted':
        return {
          kind: 'completed',
          result: `${agent.name} stopped after ${MAX_TOOL_ROUNDS} tool rounds without a final answer. Its last notes are in the scratchpad, if it left any.`,
        };
      default:
        return { kind: 'failed', error: `${agent.name} could not finish: its model request failed.` };
    }
  }

  /** The child's turn: the caller's session, gate, signal and run context; its own frame, rows, tools and model. */
  private childEnv(
    parent: CallEnv,
    frame: AgentFrame,
    emit: (body: ChatEventBody) => void,
    modelSelection: string,
  ): TurnEnv {
    const { deps } = this;
    const synthetic = {
      ...parent.synthetic,
      frame,
      grant: (names: string[]) =>
        deps.toolSets.grants.grant({ sessionId: frame.sessionId, stackId: frame.stackId }, names),
    };
    const { offered: _notInherited, beforeRecord: _own, ...base } = parent;
    return {
      ...base,
      emit,
      agentId: frame.agentId,
      synthetic,
      model: deps.model,
      modelSelection,
      context: () => ({
        sessionId: frame.sessionId,
        stackId: frame.stackId,
        contextStartId: 0,
        summary: null,
        // Read each round, so an edit of AGENT.md applies at the child's next round too.
        systemPrompt: deps.agents.prompt(frame.agentId) ?? `You are ${frame.agentName}, a task agent.`,
        extraSystemPrompts: [
          ...(parent.runContext.system_prompt ?? []),
          ...instructionsPrompts({ ...parent, agentId: frame.agentId }),
        ],
        workingDir: parent.workingDir,
        scratchpad: readScratchpad(parent.synthetic.db, parent.synthetic.padSessionId),
      }),
      toolSpecs: () =>
        toolSetFor(withCurrentAllowList(frame, deps.agents), parent.runContext.security_group, deps.toolSets),
      injectQueued: () => {}, // the person's messages go to the session's own agent, never into a child
    };
  }
}

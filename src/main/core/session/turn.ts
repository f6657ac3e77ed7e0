/**
 * One turn: up to `MAX_TOOL_ROUNDS` rounds of "rebuild context → model → tool calls" (docs/architecture.md "The path of
 * one tool call"). Text and reasoning stream as deltas; a round with text only ends the turn with `done`. The cancel
 * signal is checked before every round and every call, aborts the model request, and stops the running tool.
 * The same loop runs a sub-agent's child stack (docs/agents.md "Sub-agents"): the frame in `env.synthetic` says
 * which stack the rows belong to. A round whose calls are all sync sub-agent calls runs them in parallel, at most
 * `MAX_PARALLEL_SUBAGENTS` at once, and records their results in call order; any other round runs its calls one
 * after another. Until a call's turn comes (the one before it may be waiting for an approval, or every slot is
 * taken) its row is `queued`. A call of a tool this frame was not offered in this round is refused (offered-check
 * in tool-call).
 */
import type { ChatEventBody, TurnResult } from '../../../shared/contract/chat';
import { MAX_PARALLEL_SUBAGENTS } from '../agents/frame';
import { isSyncSubAgentCall } from '../tools/agents/execute-task';
import { buildContext, type ContextInput } from './context';
import type { LlmTurn, ModelPort, ToolSpec } from './ports';
import type { NewMessage } from './session-store';
import { cancelNotStarted, executeCall, startRound, type CallEnv, type RoundCall } from './tool-call';

export const MAX_TOOL_ROUNDS = 20;

export interface TurnEnv extends CallEnv {
  model: ModelPort;
  modelSelection: 'auto' | string;
  context: () => ContextInput;
  toolSpecs: () => ToolSpec[];
  /** Injects messages queued during the turn; called at each round boundary. */
  injectQueued: () => void;
}

// How a turn ends: the contract's one definition (agent_done carries it too).
export type { TurnResult };

export function isAbortError(error: unknown, signal: AbortSignal): boolean {
  return (
    signal.aborted || (error instanceof Error && (error.name === 'AbortError' || /abort|cancel/i.test(error.name)))
  );
}

/** What the person was already told in this turn (each is said once). */
interface Told {
  contextFitted: boolean;
  /** `llm_failed` said why the model request failed: the turn's own error would say it again. */
  failed: boolean;
}

// Not `async`: an async function returning the model's promise would cost the answer three more microtask hops before
// the round goes on (the timed path of a tool call starts at the answer: docs/performance.md "Performance targets").
function callModel(env: TurnEnv, round: number, tools: ToolSpec[], told: Told): Promise<LlmTurn> {
  return env.model.streamRound({
    modelSelection: env.modelSelection,
    messages: buildContext(env.store, env.context()),
    tools,
    signal: env.signal,
    onTextDelta: (delta) => env.emit({ type: 'text_delta', round, delta }),
    onReasoningDelta: (delta) => env.emit({ type: 'reasoning_delta', round, delta }),
    // What deciding the call needs starts loading while the model still writes it (the shell grammar).
    onToolCallStarted: (name) => env.gate.prepareFor(name),
    onFallback: (e) => env.emit({ type: 'model_fallback', ...e }),
    onFailed: (e) => {
      told.failed = true;
      env.emit({ type: 'llm_failed', ...e });
    },
    // Once a turn: each later round of it is fitted the same way (docs/models.md "Fitting the context window").
    onContextFitted: (e) => {
      if (told.contextFitted) return;
      told.contextFitted = true;
      env.emit({ type: 'context_fitted', ...e });
    },
  });
}

function assistantMessage(env: TurnEnv, turn: LlmTurn): NewMessage {
  return {
    sessionId: env.sessionId,
    stackId: env.synthetic.frame.stackId,
    role: 'assistant',
    content: turn.text,
    reasoning: turn.reasoning || null,
    inputTokens: turn.usage.inputTokens,
    outputTokens: turn.usage.outputTokens,
    cost: turn.cost,
    model: turn.modelId,
  };
}

export async function runTurn(env: TurnEnv): Promise<TurnResult> {
  const emit = (body: ChatEventBody) => env.emit(body);
  const told: Told = { contextFitted: false, failed: false };
  for (let round = 1; round <= MAX_TOOL_ROUNDS; round++) {
    if (env.signal.aborted) return 'cancelled';
    env.injectQueued();
    const tools = env.toolSpecs();
    // What this round offered is what this round may call (a group activated now is offered from the next round).
    const roundEnv: TurnEnv = { ...env, offered: new Set(tools.map((t) => t.name)) };
    let turn: LlmTurn;
    try {
      turn = await callModel(env, round, tools, told);
    } catch (error) {
      if (isAbortError(error, env.signal)) return 'cancelled';
      if (!told.failed) emit({ type: 'error', message: `The model request failed: ${(error as Error).message}` });
      return 'failed';
    }
    if (env.signal.aborted) return 'cancelled';
    if (turn.finishReason === 'length') emit({ type: 'truncated', output_tokens: turn.usage.outputTokens });

    if (turn.toolCalls.length === 0) {
      const messageId = env.store.appendMessage(assistantMessage(env, turn));
      emit({
        type: 'done',
        round,
        message_id: messageId,
        content: turn.text,
        input_tokens: turn.usage.inputTokens,
        output_tokens: turn.usage.outputTokens,
        cost: turn.cost,
      });
      return 'done';
    }
    // The answer and a row for every call of the round, in order, are written with the first call's decision, before
    // anything runs, so a crash mid-round leaves each call's intent on disk (tool-call.ts, RoundRows).
    // From here on a call's `id` is the row's own key, not the model's (which models reuse).
    // Told also for a round of tool calls alone (no text): its tokens count from now, not from the turn's end (a
    // sub-agent waiting on a question used to show "0 in · 0 out").
    const calls = startRound(env, turn.toolCalls, assistantMessage(env, turn), (messageId) => {
      emit({
        type: 'thinking',
        round,
        message_id: messageId,
        content: turn.text,
        input_tokens: turn.usage.inputTokens,
        output_tokens: turn.usage.outputTokens,
      });
    });
    if (calls.length >= 2 && calls.every((c) => isSyncSubAgentCall(c.name, c.arguments))) {
      if ((await runParallelSubAgents(roundEnv, calls)) === 'cancelled') return 'cancelled';
      continue;
    }
    for (const call of calls) {
      if (env.signal.aborted) {
        cancelNotStarted(env, call);
        continue;
      }
      if ((await executeCall(roundEnv, call)) === 'cancelled') {
        // Later calls of the round never start; mark them so the history has a result for every call.
        for (const rest of calls.slice(calls.indexOf(call) + 1)) {
          if (!rest.round?.isWritten || env.store.getTool(rest.id)?.status === 'queued') cancelNotStarted(env, rest);
        }
        return 'cancelled';
      }
    }
  }
  emit({
    type: 'error',
    message: `Stopped after ${MAX_TOOL_ROUNDS} tool rounds without a final answer: Continue lets the model go on, or send a message.`,
  });
  return 'exhausted';
}

/**
 * Sync sub-agent calls of one round, run together: at most `MAX_PARALLEL_SUBAGENTS` at once (a call waits for a
 * free slot before it starts), each call's result recorded only after the one before it, so rows, events and the
 * next request keep the model's call order. A stop reaches every running child through the shared signal.
 */
async function runParallelSubAgents(env: TurnEnv, calls: RoundCall[]): Promise<'continue' | 'cancelled'> {
  let free = MAX_PARALLEL_SUBAGENTS;
  const waiting: (() => void)[] = [];
  const acquire = () =>
    free > 0 ? (free--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve));
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  let previousRecorded: Promise<unknown> = Promise.resolve();
  const runs = calls.map((call) => {
    const recordAfter = previousRecorded;
    let released = false;
    const releaseOnce = () => {
      if (!released) (released = true), release();
    };
    // The slot is freed when the child's work ends, before waiting for the earlier calls to be recorded.
    const beforeRecord = async () => {
      releaseOnce();
      await recordAfter;
    };
    const run = (async () => {
      await acquire();
      try {
        if (env.signal.aborted) {
          await beforeRecord();
          cancelNotStarted(env, call);
          return 'cancelled' as const;
        }
        const outcome = await executeCall({ ...env, beforeRecord }, call);
        await recordAfter; // a call refused before it ran (gate, bad input) still keeps its place in the order
        return outcome;
      } finally {
        releaseOnce();
      }
    })();
    previousRecorded = run.catch(() => undefined);
    return run;
  });
  const outcomes = await Promise.all(runs);
  return outcomes.includes('cancelled') ? 'cancelled' : 'continue';
}

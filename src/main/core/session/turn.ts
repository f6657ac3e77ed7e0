/**
 * One turn: up to `MAX_TOOL_ROUNDS` rounds of "rebuild context → model → tool calls" (reference-facts.md §2).
 * Text and reasoning stream as deltas; a round with text only ends the turn with `done`. The cancel signal is
 * checked before every round and every call, aborts the model request, and stops the running tool.
 */
import type { ChatEventBody } from '../../../shared/contract/chat';
import { buildContext, type ContextInput } from './context';
import type { LlmTurn, ModelPort, ToolSpec } from './ports';
import type { SessionStore } from './session-store';
import { executeCall, startRound, type CallEnv } from './tool-call';

export const MAX_TOOL_ROUNDS = 20;

export interface TurnEnv extends CallEnv {
  model: ModelPort;
  modelSelection: 'auto' | string;
  context: () => ContextInput;
  toolSpecs: () => ToolSpec[];
  /** Injects messages queued during the turn; called at each round boundary. */
  injectQueued: () => void;
}

export type TurnResult = 'done' | 'cancelled' | 'failed' | 'exhausted';

export function isAbortError(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof Error && (error.name === 'AbortError' || /abort|cancel/i.test(error.name)));
}

async function callModel(env: TurnEnv, round: number): Promise<LlmTurn> {
  return env.model.streamRound({
    modelSelection: env.modelSelection,
    messages: buildContext(env.store, env.context()),
    tools: env.toolSpecs(),
    signal: env.signal,
    onTextDelta: (delta) => env.emit({ type: 'text_delta', round, delta }),
    onReasoningDelta: (delta) => env.emit({ type: 'reasoning_delta', round, delta }),
    onFallback: (e) => env.emit({ type: 'model_fallback', ...e }),
    onFailed: (e) => env.emit({ type: 'llm_failed', ...e }),
  });
}

function saveAssistant(store: SessionStore, sessionId: number, turn: LlmTurn): number {
  return store.appendMessage({
    sessionId,
    role: 'assistant',
    content: turn.text,
    reasoning: turn.reasoning || null,
    inputTokens: turn.usage.inputTokens,
    outputTokens: turn.usage.outputTokens,
    cost: turn.cost,
    model: turn.modelId,
  });
}

export async function runTurn(env: TurnEnv): Promise<TurnResult> {
  const emit = (body: ChatEventBody) => env.emit(body);
  for (let round = 1; round <= MAX_TOOL_ROUNDS; round++) {
    if (env.signal.aborted) return 'cancelled';
    env.injectQueued();
    let turn: LlmTurn;
    try {
      turn = await callModel(env, round);
    } catch (error) {
      if (isAbortError(error, env.signal)) return 'cancelled';
      emit({ type: 'error', message: `The model request failed: ${(error as Error).message}` });
      return 'failed';
    }
    if (env.signal.aborted) return 'cancelled';
    const messageId = saveAssistant(env.store, env.sessionId, turn);
    if (turn.finishReason === 'length') emit({ type: 'truncated', output_tokens: turn.usage.outputTokens });

    if (turn.toolCalls.length === 0) {
      emit({ type: 'done', round, message_id: messageId, content: turn.text, input_tokens: turn.usage.inputTokens, output_tokens: turn.usage.outputTokens, cost: turn.cost });
      return 'done';
    }
    if (turn.text) {
      emit({ type: 'thinking', round, message_id: messageId, content: turn.text, input_tokens: turn.usage.inputTokens, output_tokens: turn.usage.outputTokens });
    }
    // Rows for every call of the round first, in order, so a crash mid-round leaves each call's intent on disk.
    // From here on a call's `id` is the row's own key, not the model's (which models reuse).
    const calls = startRound(env, turn.toolCalls, messageId);
    for (const call of calls) {
      if (env.signal.aborted) {
        env.store.finishTool(call.id, 'cancelled', 'Not started: the turn was stopped.');
        emit({ type: 'tool_cancelled', tool_call_id: call.id, note: 'Not started: the turn was stopped.' });
        continue;
      }
      if ((await executeCall(env, call)) === 'cancelled') {
        // Later calls of the round never start; mark them so the history has a result for every call.
        for (const rest of calls.slice(calls.indexOf(call) + 1)) {
          if (env.store.getTool(rest.id)?.status === 'running') {
            env.store.finishTool(rest.id, 'cancelled', 'Not started: the turn was stopped.');
            emit({ type: 'tool_cancelled', tool_call_id: rest.id, note: 'Not started: the turn was stopped.' });
          }
        }
        return 'cancelled';
      }
    }
  }
  emit({ type: 'error', message: `Stopped after ${MAX_TOOL_ROUNDS} tool rounds without a final answer. Send a message to continue.` });
  return 'exhausted';
}

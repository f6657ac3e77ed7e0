/**
 * One model round with streaming and fallback (docs/architecture.md "Models and fallback", "Events"). `streamRound`
 * converts our history, calls the AI SDK's `streamText` with the tools declared WITHOUT `execute` (the SDK never runs a
 * tool; calls come back in `LlmTurn.toolCalls` for the turn loop to gate and run) and `maxRetries: 0` (retrying is
 * our fallback's job), forwards text and reasoning deltas as they arrive, and returns the whole round.
 *
 * Fallback: a network error, HTTP 5xx or 429 moves to the next model by priority (wrapping around from a chosen
 * model), at most `maxTries` (3) models per round, each move reported as `model_fallback`; when the round fails
 * for good, `llm_failed` is reported and the promise rejects with `LlmRequestError`. Other 4xx never fall back.
 * A failure after text or reasoning already streamed never falls back either: the deltas the UI has shown would
 * be mixed with another model's answer. Aborting `signal` rejects with `LlmCancelledError` at once.
 *
 * Each request carries the model's reasoning setting in its provider's form (llm/reasoning.ts, docs/architecture.md
 * "Reasoning").
 *
 * Limits: no request timeout of its own (a silent provider waits until the user stops the turn); usage counts
 * missing from a provider's stream count as 0.
 */
import type { JSONSchema7, Tool } from 'ai';
import { providerDescriptor } from '../../../shared/providers/registry';
import { loadAiSdk } from './ai-sdk';
import {
  contextFitted,
  fitMessages,
  isContextOverflow,
  OVERFLOW_ADVICE,
  promptBudgetChars,
  totalChars,
  windowFromError,
} from './context-fit';
import { classifyFailure, LlmCancelledError, LlmRequestError } from './errors';
import { toModelMessages } from './messages';
import { findModelIndex } from './model-catalog';
import { ModelHealth } from './model-health';
import { costFromMetadata, LanguageModels, type FetchFunction } from './provider-factory';
import type { ModelRecord } from './provider-repository';
import { KeptThinking, ThinkingCollector } from './reasoning';
import { MAX_ARGUMENT_DEPTH, nestedDeeperThan } from '../../../shared/tool-arguments';
import type {
  ChatToolCall,
  FallbackEvent,
  FailedEvent,
  LlmEvent,
  LlmTurn,
  StreamRoundRequest,
  ToolSpec,
} from './types';

export const MAX_TRIES_PER_ROUND = 3;

/** What the client needs from the repository: usable models by priority and a provider's decrypted key. */
export interface ModelDirectory {
  orderedModels(): ModelRecord[];
  apiKey(providerId: number): string | null;
}

export interface LlmClientOptions {
  models: ModelDirectory;
  health?: ModelHealth;
  /** Every `model_fallback` / `llm_failed`, in addition to the per-request callbacks. */
  onEvent?: (event: LlmEvent) => void;
  maxTries?: number;
  fetch?: FetchFunction;
  /** Diagnostics without secrets or content: model ids, status codes, reasons. */
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export function priceCost(model: ModelRecord, inputTokens: number, outputTokens: number): number | null {
  if (model.inputPricePerM === null && model.outputPricePerM === null) return null;
  return (inputTokens * (model.inputPricePerM ?? 0) + outputTokens * (model.outputPricePerM ?? 0)) / 1_000_000;
}

function toolSet(ai: Awaited<ReturnType<typeof loadAiSdk>>, specs: readonly ToolSpec[]): Record<string, Tool> {
  const set: Record<string, Tool> = {};
  // No `execute`: the SDK returns the calls and stops after one step.
  for (const s of specs)
    set[s.name] = ai.tool({ description: s.description, inputSchema: ai.jsonSchema(s.parameters as JSONSchema7) });
  return set;
}

/**
 * A call's arguments as text, for its row. The SDK hands them over parsed; unparsable ones come back raw. Nested
 * past what the session accepts, they are kept as the model streamed them: restating them would recurse once per
 * level and overflow the stack, failing the whole request (docs/approval.md "Arguments nested too deep").
 */
function argumentsString(input: unknown, streamed: string | undefined): string {
  if (typeof input === 'string') return input;
  if (nestedDeeperThan(input, MAX_ARGUMENT_DEPTH)) return streamed ?? TOO_DEEP_UNSTREAMED;
  return JSON.stringify(input ?? {});
}

/** Stands for arguments too deep to restate that arrived in one piece: not JSON, so the call fails its parse. */
const TOO_DEEP_UNSTREAMED = `(arguments nested more than ${MAX_ARGUMENT_DEPTH} levels deep)`;

class OutputStartedError extends Error {
  constructor(readonly original: unknown) {
    super('failed after output started');
  }
}

export class LlmClient {
  readonly health: ModelHealth;
  private readonly maxTries: number;
  private readonly models: LanguageModels;
  private readonly thinking = new KeptThinking();

  constructor(private readonly options: LlmClientOptions) {
    this.health = options.health ?? new ModelHealth();
    this.models = new LanguageModels(options.fetch);
    this.maxTries = Math.max(1, options.maxTries ?? MAX_TRIES_PER_ROUND);
    // The SDK prints provider warnings (unsupported settings) to the console by default; send them to our log
    // instead, unless the host configured its own logger. A process-wide global: the first client decides.
    if (globalThis.AI_SDK_LOG_WARNINGS === undefined) {
      const log = options.log;
      globalThis.AI_SDK_LOG_WARNINGS = log
        ? ({ warnings, provider, model }) => log('llm: provider warnings', { provider, model, warnings })
        : false;
    }
  }

  async streamRound(request: StreamRoundRequest): Promise<LlmTurn> {
    const { signal } = request;
    if (signal.aborted) throw new LlmCancelledError();
    const models = this.options.models.orderedModels();
    const fallback = (e: FallbackEvent) => {
      this.options.log?.('llm: model fallback', { ...e });
      this.options.onEvent?.({ type: 'model_fallback', ...e });
      request.onFallback?.(e);
    };
    const failed = (e: FailedEvent, statusCode: number | null, cause?: unknown): LlmRequestError => {
      this.options.log?.('llm: round failed', { ...e });
      this.options.onEvent?.({ type: 'llm_failed', ...e });
      request.onFailed?.(e);
      return new LlmRequestError(e.last_error, e.tried, statusCode, { cause });
    };
    if (models.length === 0)
      throw failed({ tried: [], last_error: 'No model is configured: add a provider and a model in Settings.' }, null);

    let start = 0;
    if (request.modelSelection !== 'auto') {
      const index = findModelIndex(models, request.modelSelection);
      if (index >= 0) start = index;
      else fallback({ from: request.modelSelection, to: models[0]!.modelId, reason: 'model not configured' });
    }
    const order = [...models.slice(start), ...models.slice(0, start)].slice(0, this.maxTries);

    const tried: string[] = [];
    for (let i = 0; i < order.length; i++) {
      const model = order[i]!;
      tried.push(model.modelId);
      // Each model gets the request fitted to its own window; one that still finds it too long gets it once more at
      // half the size, or smaller where its error names its window (its window was not set, or is smaller than set):
      // docs/models.md "Fitting the context window".
      let budget = promptBudgetChars(model.contextWindow, request.tools);
      let overflowed = false;
      let toldWindow: number | null = null;
      for (;;) {
        try {
          const fit = fitMessages(request.messages, budget);
          if (fit.charsAfter < fit.charsBefore) request.onContextFitted?.(contextFitted(model, fit, toldWindow));
          const turn = await this.attempt(model, { ...request, messages: fit.messages });
          this.health.recordSuccess(model.id);
          return turn;
        } catch (error) {
          if (signal.aborted) throw new LlmCancelledError();
          const started = error instanceof OutputStartedError;
          const original = started ? error.original : error;
          const failure = classifyFailure(original);
          if (!started && !overflowed && isContextOverflow(failure.statusCode, failure.reason)) {
            overflowed = true;
            // Half the size, or what fits the window the provider named if that is less.
            toldWindow = windowFromError(failure.reason);
            budget = Math.floor(Math.min(budget, totalChars(request.messages)) / 2);
            if (toldWindow !== null) budget = Math.min(budget, promptBudgetChars(toldWindow, request.tools));
            this.options.log?.('llm: context overflow, retrying smaller', { model: model.modelId, budget });
            continue;
          }
          this.health.recordFailure(model.id, failure.reason);
          const next = order[i + 1];
          if (!failure.canFallBack || started || !next) {
            const why =
              started && failure.canFallBack
                ? `${failure.reason} (after the answer had started)`
                : overflowed
                  ? `${failure.reason}. ${OVERFLOW_ADVICE}`
                  : failure.reason;
            throw failed({ tried, last_error: why }, failure.statusCode, original);
          }
          fallback({ from: model.modelId, to: next.modelId, reason: failure.reason });
          break;
        }
      }
    }
    throw failed({ tried, last_error: 'no model could be tried' }, null); // unreachable: order is never empty
  }

  private async attempt(model: ModelRecord, request: StreamRoundRequest): Promise<LlmTurn> {
    const { signal } = request;
    // A kind this build does not know fails this model alone, before any request (errors.ts lets the next one try).
    providerDescriptor(model.providerKind);
    const reasoningPlan = this.thinking.plan(model, request.messages);
    if (reasoningPlan.leftOff)
      this.options.log?.('llm: thinking left off for a round continuing a tool use whose thinking is not kept', {
        model: model.modelId,
      });
    const prompt = toModelMessages(request.messages, model.providerKind, reasoningPlan.replay);
    const ai = await loadAiSdk(); // imported on the first request, not at start (llm/ai-sdk.ts)
    const result = ai.streamText({
      model: await this.models.get(model, this.options.models.apiKey(model.providerId)),
      ...(prompt.system !== undefined ? { system: prompt.system } : {}),
      messages: prompt.messages,
      allowSystemInMessages: true,
      ...(request.tools.length ? { tools: toolSet(ai, request.tools) } : {}),
      ...(reasoningPlan.providerOptions ? { providerOptions: reasoningPlan.providerOptions } : {}),
      maxRetries: 0,
      abortSignal: signal,
      // Errors arrive as `error` parts below; without this the SDK would also print them.
      onError: () => {},
    });

    let text = '';
    let reasoning = '';
    const thinkingBlocks = new ThinkingCollector();
    const toolCalls: ChatToolCall[] = [];
    const streamedInput = new Map<string, string>(); // each call's argument text as streamed, by call id
    let usage = { inputTokens: 0, outputTokens: 0 };
    let reportedCost: number | null = null;
    let finishReason = 'other';
    const fail = (error: unknown): never => {
      throw text || reasoning ? new OutputStartedError(error) : error;
    };

    try {
      for await (const part of result.fullStream) {
        switch (part.type) {
          case 'text-delta':
            text += part.text;
            request.onTextDelta(part.text);
            break;
          case 'reasoning-start':
            thinkingBlocks.start(part.id, part.providerMetadata);
            break;
          case 'reasoning-delta':
            thinkingBlocks.delta(part.id, part.text, part.providerMetadata);
            if (!part.text) break; // a block's signature arrives as an empty delta
            reasoning += part.text;
            request.onReasoningDelta(part.text);
            break;
          case 'tool-input-start':
            request.onToolCallStarted?.(part.toolName);
            streamedInput.set(part.id, '');
            break;
          case 'tool-input-delta':
            streamedInput.set(part.id, (streamedInput.get(part.id) ?? '') + part.delta);
            break;
          case 'tool-call':
            toolCalls.push({
              id: part.toolCallId,
              name: part.toolName,
              arguments: argumentsString(part.input, streamedInput.get(part.toolCallId)),
            });
            streamedInput.delete(part.toolCallId);
            break;
          case 'finish-step':
            reportedCost = costFromMetadata(part.providerMetadata) ?? reportedCost;
            break;
          case 'finish':
            finishReason = part.finishReason;
            usage = { inputTokens: part.totalUsage.inputTokens ?? 0, outputTokens: part.totalUsage.outputTokens ?? 0 };
            break;
          case 'abort':
            throw new LlmCancelledError();
          case 'error':
            fail(part.error);
            break;
          default:
            break; // start/step markers, tool-input streaming, sources: not needed for a whole round
        }
      }
    } catch (error) {
      if (signal.aborted || error instanceof LlmCancelledError) throw new LlmCancelledError();
      if (error instanceof OutputStartedError) throw error;
      fail(error);
    }
    if (signal.aborted) throw new LlmCancelledError();
    if (reasoningPlan.providerOptions && providerDescriptor(model.providerKind).replaysSignedThinking && toolCalls[0])
      this.thinking.keep(toolCalls[0].id, model.id, thinkingBlocks);
    return {
      text,
      reasoning,
      toolCalls,
      usage,
      cost: reportedCost ?? priceCost(model, usage.inputTokens, usage.outputTokens),
      modelId: model.modelId,
      finishReason,
    };
  }
}

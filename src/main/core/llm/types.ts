/**
 * The shapes the LLM layer speaks with the turn loop: our own OpenAI-shape history (`ChatMessage`), the tools the
 * model may call (`ToolSpec`, JSON Schema parameters), one round's request and its whole result (`LlmTurn`).
 * They mirror `session/ports.ts` structurally, so `LlmClient` is a `ModelPort` without either importing the other.
 */

import type { ToolCall } from '../../../shared/tool-call';

/**
 * A call in the history or in a round's answer (the one `ToolCall`): `id` in the history is the app's own key of the
 * call (its row's `tool_call_id`), which its result names; in a round's answer (`LlmTurn.toolCalls`), the provider's
 * id, before the call is keyed.
 */
export interface ChatToolCall extends ToolCall {
  /**
   * In the history: the id the provider gave the call, sent back in its place when no other call of the request
   * has it (providers reuse ids; a result is never matched by it: llm/messages.ts).
   */
  providerId?: string;
}

/** An image of a person's message or of a tool's result, replayed with it (docs/chat-ui.md "Images in a message"). */
export interface ChatMessageImage {
  mediaType: string;
  data: Uint8Array;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: ChatMessageImage[] }
  | { role: 'assistant'; content: string; tool_calls?: ChatToolCall[] }
  /** `tool_call_id`: the app's key of the call it answers (`ChatToolCall.id` in the history). */
  | { role: 'tool'; tool_call_id: string; content: string; images?: ChatMessageImage[] };

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments; the top level is an object. */
  parameters: Record<string, unknown>;
}

export interface FallbackEvent {
  from: string;
  to: string;
  reason: string;
}

export interface FailedEvent {
  tried: string[];
  last_error: string;
}

/** A request was made smaller to fit the model's context window (llm/context-fit.ts). */
export interface ContextFittedEvent {
  model: string;
  window_tokens: number;
  /** False: the window is the default assumed for a model whose window is not set. */
  window_is_set: boolean;
  hidden_results: number;
  dropped_messages: number;
  cut_messages: number;
}

export type LlmEvent = ({ type: 'model_fallback' } & FallbackEvent) | ({ type: 'llm_failed' } & FailedEvent);

export interface StreamRoundRequest {
  /** 'auto' starts at the first model by priority; a model id (or display name) starts at that model. */
  modelSelection: 'auto' | string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  onTextDelta: (text: string) => void;
  onReasoningDelta: (text: string) => void;
  /** A tool call began in the stream (its arguments still coming; the round's calls run once the stream ends). */
  onToolCallStarted?: (toolName: string) => void;
  onFallback?: (event: FallbackEvent) => void;
  onFailed?: (event: FailedEvent) => void;
  /** Called before a model's attempt whose request had to be made smaller to fit its context window. */
  onContextFitted?: (event: ContextFittedEvent) => void;
}

/** 'stop' | 'tool-calls' | 'length' | 'content-filter' | 'error' | 'other' (the AI SDK's finish reasons). */
export type FinishReason = string;

export interface LlmTurn {
  text: string;
  reasoning: string;
  toolCalls: ChatToolCall[];
  usage: { inputTokens: number; outputTokens: number };
  /** USD: the provider's reported cost when it sends one (OpenRouter), else from the configured prices, else null. */
  cost: number | null;
  /** The model that answered (after any fallback). */
  modelId: string;
  finishReason: FinishReason;
}

/**
 * What an LLM failure means for fallback (docs/architecture.md "Models and fallback"): network errors, HTTP 5xx and 429
 * move on to the next model; every other 4xx (bad request, bad key, unknown model) and anything else fails the round,
 * since another model would most likely fail the same way or the user must fix the configuration first.
 * A round ended by the caller's AbortSignal rejects with `LlmCancelledError` (name `AbortError`).
 */
import { UnknownProviderKindError } from '../../../shared/providers/registry';
import { loadedAiSdk } from './ai-sdk';

export class LlmCancelledError extends Error {
  constructor() {
    super('The model request was cancelled.');
    // The name a caller's `isAbortError` recognises, like DOMException's AbortError.
    this.name = 'AbortError';
  }
}

export class LlmRequestError extends Error {
  constructor(
    message: string,
    readonly tried: string[],
    readonly statusCode: number | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmRequestError';
  }
}

export function isLlmCancelled(error: unknown): error is LlmCancelledError {
  return error instanceof LlmCancelledError;
}

export interface FailureClass {
  /** True: try the next model. */
  canFallBack: boolean;
  /** Short, for `model_fallback.reason` and `llm_failed.last_error`; never includes request bodies or keys. */
  reason: string;
  statusCode: number | null;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && /fetch failed|terminated|socket/i.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

function firstLine(text: string, max = 300): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

export function classifyFailure(error: unknown): FailureClass {
  // The SDK is loaded by the request that failed; before any request, no error can be one of its own.
  const ai = loadedAiSdk();
  const e = ai?.RetryError.isInstance(error) ? error.lastError : error;
  if (ai?.APICallError.isInstance(e)) {
    const status = e.statusCode ?? null;
    if (status === null)
      return {
        canFallBack: e.isRetryable || isNetworkError(e),
        reason: `network error: ${firstLine(e.message)}`,
        statusCode: null,
      };
    const canFallBack = status === 429 || status >= 500;
    return { canFallBack, reason: `HTTP ${status}: ${firstLine(e.message)}`, statusCode: status };
  }
  if (isNetworkError(e))
    return { canFallBack: true, reason: `network error: ${firstLine((e as Error).message)}`, statusCode: null };
  // The SDK restates a round's tool calls as JSON (recursively) before it ends the stream: a reply nesting thousands of
  // levels overflows the stack there, before any call of ours sees it (docs/approval.md "Arguments nested too deep").
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return {
      canFallBack: false,
      reason:
        'the reply could not be read: the stack overflowed, as it does for tool arguments nested thousands of levels deep',
      statusCode: null,
    };
  }
  // A stored kind this build does not know: that provider's models only; the next model may be of a known one.
  if (e instanceof UnknownProviderKindError) return { canFallBack: true, reason: e.message, statusCode: null };
  const message = e instanceof Error ? e.message : String(e);
  return { canFallBack: false, reason: firstLine(message) || 'unknown error', statusCode: null };
}

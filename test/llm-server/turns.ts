/**
 * What a scripted turn is, how a request picks its turn, and how text and tool-call arguments are cut into the
 * pieces the streams send. Shared by the OpenAI and Anthropic wire writers.
 *
 * Picking: the first queued turn whose `match` is found in the request's last user message wins; otherwise the
 * first queued turn without a `match`; otherwise the configured default turn; otherwise the request is answered
 * with a 400 "no scripted turn left" (a 4xx, so it never triggers a model fallback and hides nothing).
 */

export interface ScriptedToolCall {
  /** Defaults to `call_<n>` (OpenAI) / `toolu_<n>` (Anthropic), unique per server. */
  id?: string;
  name: string;
  /** An object is sent as its JSON; a string is sent verbatim (to script malformed arguments). */
  arguments: Record<string, unknown> | string;
}

export interface ScriptedTurn {
  /** Only for a request whose last user message contains this text (case-sensitive). */
  match?: string;
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Answer with this HTTP error status (and a provider-shaped error body) instead of a stream. */
  status?: number;
  errorMessage?: string;
  /** Close the socket without an answer: a network error for the client. */
  dropConnection?: boolean;
  /** Wait this long before answering (ends early if the client goes away). */
  delayMs?: number;
  /** Wait this long between stream chunks. */
  chunkDelayMs?: number;
  /** Cut the connection after this many stream chunks: a failure after output started. */
  dropAfterChunks?: number;
  /** Send the head of the stream (first text piece, if any) and then nothing until the client aborts. */
  hangUntilAborted?: boolean;
  /** Override the reported usage; `cost` is sent as OpenRouter's `usage.cost`. */
  usage?: { inputTokens?: number; outputTokens?: number; cost?: number };
  /** 'length' scripts a truncated answer; default is 'tool_calls'/'tool_use' with calls, else 'stop'/'end_turn'. */
  finishReason?: 'stop' | 'length';
}

export interface RecordedRequest {
  /** 'openai' for /v1/chat/completions, 'anthropic' for /v1/messages. */
  api: 'openai' | 'anthropic';
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  /** Index of the scripted turn that answered it in the order turns were used, or null if none was left. */
  turn: ScriptedTurn | null;
}

/** Text of the last user message of an OpenAI or Anthropic request body (string or text-part content). */
export function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown };
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') return m.content;
    if (Array.isArray(m.content)) {
      const texts = (m.content as { type?: unknown; text?: unknown }[]).filter(
        (p) => p.type === 'text' && typeof p.text === 'string',
      );
      if (texts.length) return texts.map((p) => p.text as string).join('\n');
    }
  }
  return '';
}

export class TurnQueue {
  private readonly queue: ScriptedTurn[] = [];
  defaultTurn: ScriptedTurn | null = null;

  push(turns: readonly ScriptedTurn[]): void {
    this.queue.push(...turns);
  }

  clear(): void {
    this.queue.length = 0;
  }

  get remaining(): number {
    return this.queue.length;
  }

  take(body: Record<string, unknown>): ScriptedTurn | null {
    const user = lastUserText(body);
    let index = this.queue.findIndex((t) => t.match !== undefined && user.includes(t.match));
    if (index < 0) index = this.queue.findIndex((t) => t.match === undefined);
    if (index < 0) return this.defaultTurn;
    return this.queue.splice(index, 1)[0] ?? null;
  }
}

/** Word-sized pieces ("Hello ", "world"), so a text always streams as several deltas when it has several words. */
export function textPieces(text: string): string[] {
  const pieces = text.match(/\s*\S+\s*/g) ?? [];
  return pieces.length ? pieces : text ? [text] : [];
}

/** Cuts a JSON string into `parts` non-empty pieces (fewer if it is shorter), so no piece is valid JSON alone. */
export function splitArguments(json: string, parts = 3): string[] {
  if (json.length <= 1) return [json];
  const n = Math.min(parts, json.length);
  const size = Math.ceil(json.length / n);
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out;
}

export function argumentsJson(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

/** A deterministic token estimate (≈ 4 characters a token) when a turn does not script its usage. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function outputText(turn: ScriptedTurn): string {
  return (turn.text ?? '') + (turn.reasoning ?? '') + (turn.toolCalls ?? []).map(argumentsJson).join('');
}

/**
 * Fitting a round's messages into the model's context window (docs/models.md "Fitting the context window").
 * The history is already capped by rows (session/context.ts); a turn of many rounds can still outgrow any window (20
 * rounds of 256 KB reads), as can a long paste, and a provider answers that with an error that ends the turn. So each
 * request is measured against the window of the model it goes to, and what does not fit is left out, least useful
 * first:
 * 1. tool results, oldest first (never the newest round's), each replaced by a note saying what was left out;
 * 2. whole exchanges from the start of the history (up to the next message of the person's, never the last one), so
 *    no tool result loses its call;
 * 3. the longest messages left, cut to their start (halved until the whole fits, down to CUT_FLOOR_CHARS each).
 * Sizes are counted in characters against a token window at CHARS_PER_TOKEN: no tokenizer of every provider is at
 * hand, and a low ratio errs on the side of a request that fits. The system message is never touched.
 */
import type { ModelRecord } from './provider-repository';
import type { ChatMessage, ContextFittedEvent, ToolSpec } from './types';

/** The window assumed for a model whose window is not set (Settings → Models): what current models offer at least. */
export const DEFAULT_CONTEXT_TOKENS = 128_000;
/** Code and JSON run 3–4 characters a token in the common tokenizers; prose 4–5. */
export const CHARS_PER_TOKEN = 3;
/** The share of the window a request may fill: the rest is the reply's. */
export const PROMPT_SHARE = 0.75;
/** A result shorter than this is kept: hiding it saves little and costs the model what it said. */
export const HIDE_MIN_CHARS = 1_000;
/** A message is never cut below this. */
export const CUT_FLOOR_CHARS = 2_000;

export interface ContextFit {
  messages: ChatMessage[];
  /** Characters the request measured before and after. */
  charsBefore: number;
  charsAfter: number;
  hiddenResults: number;
  droppedMessages: number;
  cutMessages: number;
}

export function promptBudgetChars(windowTokens: number | null, tools: readonly ToolSpec[]): number {
  const window = windowTokens ?? DEFAULT_CONTEXT_TOKENS;
  const toolChars = tools.reduce(
    (sum, t) => sum + t.name.length + t.description.length + JSON.stringify(t.parameters).length,
    0,
  );
  return Math.max(0, Math.floor(window * CHARS_PER_TOKEN * PROMPT_SHARE) - toolChars);
}

/**
 * What one image (of a person's message or a tool's result) is counted as: the providers bill an image by its pixels, up to about 1,600
 * tokens for the largest they take without scaling down (Anthropic; OpenAI's high detail up to about 1,100).
 */
export const IMAGE_CHARS = 1_600 * CHARS_PER_TOKEN;

function sizeOf(m: ChatMessage): number {
  let size = m.content.length;
  if (m.role === 'assistant') for (const c of m.tool_calls ?? []) size += c.name.length + c.arguments.length;
  if (m.role === 'user' || m.role === 'tool') size += (m.images?.length ?? 0) * IMAGE_CHARS;
  return size;
}

export const totalChars = (messages: readonly ChatMessage[]) => messages.reduce((sum, m) => sum + sizeOf(m), 0);

/** What stands for a tool result the model does not see again: why, and how long it was (session/context.ts too). */
export const leftOutResultNote = (chars: number, why: string) =>
  `[result ${why}: ${chars} characters; run the tool again if you need it]`;
export const hiddenResultNote = (chars: number) =>
  leftOutResultNote(chars, "left out to fit the model's context window");

function cutContent(content: string, keep: number): string {
  // Never split a surrogate pair: the cut text stays valid UTF-16 (a lone half breaks some providers' JSON).
  let end = keep;
  const code = content.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${content.slice(0, end)}\n[cut to fit the model's context window: ${content.length} characters in all]`;
}

/** The messages of `messages` that fit `budgetChars`; the input is left as it was. */
export function fitMessages(messages: readonly ChatMessage[], budgetChars: number): ContextFit {
  const charsBefore = totalChars(messages);
  const fit: ContextFit = {
    messages: [...messages],
    charsBefore,
    charsAfter: charsBefore,
    hiddenResults: 0,
    droppedMessages: 0,
    cutMessages: 0,
  };
  if (charsBefore <= budgetChars) return fit;
  const out = fit.messages;
  let total = charsBefore;

  // 1. Tool results, oldest first; the newest round's (after the last assistant message) are what the model asked for now.
  const lastAssistant = out.findLastIndex((m) => m.role === 'assistant');
  for (let i = 0; i < lastAssistant && total > budgetChars; i++) {
    const m = out[i]!;
    if (m.role !== 'tool' || sizeOf(m) < HIDE_MIN_CHARS) continue;
    // Its images go with it: the note names them, and the model can read the file again.
    const content = m.images?.length
      ? `${hiddenResultNote(m.content.length)}\n[${m.images.length === 1 ? 'an image' : `${m.images.length} images`} returned here, left out with it]`
      : hiddenResultNote(m.content.length);
    total += content.length - sizeOf(m);
    out[i] = { role: 'tool', tool_call_id: m.tool_call_id, content };
    fit.hiddenResults++;
  }

  // 2. Whole exchanges from the start of the history: up to the next message of the person's, never the last one.
  const first = out[0]?.role === 'system' ? 1 : 0;
  while (total > budgetChars) {
    const lastUser = out.findLastIndex((m) => m.role === 'user');
    if (lastUser <= first) break;
    let next = first + 1;
    while (out[next]!.role !== 'user') next++; // ends at lastUser at the latest
    for (const m of out.splice(first, next - first)) total -= sizeOf(m);
    fit.droppedMessages += next - first;
  }

  // 3. The longest messages left, halved in turn until the whole fits; each cut is taken from the message as it was.
  const original = new Map<number, string>();
  const kept = new Map<number, number>();
  while (total > budgetChars) {
    let longest = -1;
    const visible = (i: number) => kept.get(i) ?? out[i]!.content.length;
    for (let i = first; i < out.length; i++)
      if (visible(i) > CUT_FLOOR_CHARS && (longest < 0 || visible(i) > visible(longest))) longest = i;
    if (longest < 0) break; // nothing left to cut: the request goes as it is, and the provider says what it thinks
    const m = out[longest]!;
    const whole = original.get(longest) ?? m.content;
    original.set(longest, whole);
    const keep = Math.max(
      CUT_FLOOR_CHARS,
      Math.min(Math.floor(visible(longest) / 2), visible(longest) - (total - budgetChars)),
    );
    kept.set(longest, keep);
    const content = cutContent(whole, keep);
    total += content.length - m.content.length;
    out[longest] = { ...m, content } as ChatMessage;
  }
  fit.cutMessages = original.size;
  fit.charsAfter = total;
  return fit;
}

/** Whether a provider's error says the request was larger than the model's context window. */
export function isContextOverflow(statusCode: number | null, message: string): boolean {
  if (statusCode !== null && statusCode !== 400 && statusCode !== 413 && statusCode !== 422) return false;
  return /context[ _-]?(length|window|size)|maximum context|too many tokens|prompt is too long|input is too long|too long for|exceeds? the (context|maximum)|reduce the length|max_tokens.*context|request too large/i.test(
    message,
  );
}

/** What a request that still did not fit at half the size tells the person. */
export const OVERFLOW_ADVICE =
  "The conversation does not fit the model's context window even with its older parts left out: set the model's context window in Settings → Models, or send /compact (a summary stands in for the older messages) or /clear";

/**
 * The window a provider's "too long" names, where it names one: OpenAI's "maximum context length is 16385 tokens",
 * Anthropic's "250000 tokens > 200000 maximum", Gemini's "tokens allowed (1048576)", Mistral's "with 32768 maximum
 * context length", llama.cpp's "available context size (4096 tokens)". A local server's window is often a small
 * fraction of the 128k assumed for an unset one: half of the first request would still not fit.
 */
export function windowFromError(message: string): number | null {
  const m =
    /maximum context length is (\d+)|> ?(\d+) maximum|tokens allowed \((\d+)\)|with (\d+) maximum context|context size \((\d+) tokens?\)/i.exec(
      message,
    );
  const n = m ? Number(m.slice(1).find((g) => g !== undefined)) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

export function contextFitted(
  model: Pick<ModelRecord, 'modelId' | 'contextWindow'>,
  fit: ContextFit,
  toldWindow: number | null = null,
): ContextFittedEvent {
  return {
    model: model.modelId,
    window_tokens: toldWindow ?? model.contextWindow ?? DEFAULT_CONTEXT_TOKENS,
    window_is_set: model.contextWindow !== null,
    hidden_results: fit.hiddenResults,
    dropped_messages: fit.droppedMessages,
    cut_messages: fit.cutMessages,
  };
}

/**
 * What a kind of LLM provider is (docs/providers.md): one descriptor per kind, in one module per kind, listed once in
 * `list.ts`. Everything that differs between kinds is a field here, read by the core (wire, reasoning, message shape,
 * probe, model list) and by the renderer (name, hints, which fields the form asks for); nothing decides by a kind's
 * name. Pure data and pure functions, so both sides import it.
 */

/** How much the model reasons before it answers (docs/architecture.md "Reasoning"); `off` sends nothing extra. */
export const REASONING_LEVELS = ['off', 'low', 'medium', 'high'] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];

/** A JSON value, as the AI SDK takes it in `providerOptions`. */
export type JsonValue = null | string | number | boolean | JsonValue[] | { [key: string]: JsonValue };
/** A request's `providerOptions`: options by the SDK provider's name (`anthropic`, `openai`, the compatible one's name). */
export type ProviderOptions = Record<string, Record<string, JsonValue>>;

/**
 * The API a kind speaks, and so the AI SDK package its requests go through (llm/wires.ts in the core):
 * `openai-chat` OpenAI's Chat Completions, `anthropic-messages` Anthropic's Messages API, `openai-compatible` any
 * server of the OpenAI shape (usage in the stream, the cost a gateway reports).
 */
export const WIRES = ['openai-chat', 'anthropic-messages', 'openai-compatible'] as const;
export type Wire = (typeof WIRES)[number];

/**
 * How a history is put to the provider (llm/messages.ts): `anthropic` takes system text only up front and images in
 * a tool's result; `openai` keeps a later system message in place and takes a tool's images in a user message after
 * the round's results.
 */
export type MessageShape = 'anthropic' | 'openai';

export interface ProviderDescriptor {
  /** Its name where it is stored (`llm_providers.kind`) and sent; lower case, digits and `_`. */
  readonly kind: string;
  /** The name a person reads (Settings, the first-run guide). */
  readonly label: string;
  /** One line under the kind in the picker. */
  readonly hint: string;
  readonly key: 'required' | 'optional' | 'none';
  /** `fixed`: the default address, editable under "Advanced"; `local`: a server on this computer; `required`: the person gives one. */
  readonly baseUrl: 'fixed' | 'local' | 'required';
  /** The address when none is given; null: the person must give one. */
  readonly defaultBaseUrl: string | null;
  /** Where its key comes from, under the key field. */
  readonly keyHint?: string;
  /** An example model id, in the model field's placeholder. */
  readonly modelHint: string;
  readonly wire: Wire;
  /** Top-level fields added to every request body (`openai-compatible` wire only): OpenRouter's `usage.include`. */
  readonly requestBodyExtras?: Readonly<Record<string, JsonValue>>;
  /** The `providerOptions` that carry a reasoning level (never `off`) in this kind's own form. */
  readonly reasoning: (level: Exclude<ReasoningLevel, 'off'>) => ProviderOptions;
  /**
   * With reasoning on, a round continuing a tool use must start with the signed thinking it came with (Anthropic):
   * the client keeps it between rounds (llm/reasoning.ts).
   */
  readonly replaysSignedThinking: boolean;
  readonly messages: MessageShape;
  /** The headers of a "Test connection" (`GET <baseUrl>/models`): its own auth header and any version header. */
  readonly probeHeaders: (apiKey: string | null) => Record<string, string>;
  /**
   * The model list: `GET <baseUrl>/models` for every kind; `windowsUrl` is a second list on the same server that says
   * each model's context window where the first does not (LM Studio's `/api/v0/models`).
   */
  readonly modelList?: { readonly windowsUrl: (baseUrl: string) => string };
  /** A server on this computer, looked for at `defaultBaseUrl` by local discovery, and the name it is offered under. */
  readonly local?: { readonly name: string };
}

/** `Authorization: Bearer <key>`, the OpenAI shape's auth (no header without a key). */
export function bearerHeaders(apiKey: string | null): Record<string, string> {
  return { accept: 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) };
}

/** `reasoning_effort` through the SDK's OpenAI-compatible provider: the form of most OpenAI-shape servers. */
export const reasoningEffort = (level: Exclude<ReasoningLevel, 'off'>): ProviderOptions => ({
  openaiCompatible: { reasoningEffort: level },
});

/**
 * One AI SDK language model per configured model, by its kind's wire (docs/providers.md): `openai-chat` OpenAI's
 * Chat Completions API (`.chat`, not the Responses API, so any OpenAI-shape endpoint works); `anthropic-messages`
 * Anthropic's Messages API; `openai-compatible` an OpenAI-shape endpoint with usage in the stream and the kind's
 * own body fields. API keys come from the caller (the secret store) and are
 * passed explicitly, so the SDK never falls back to reading `OPENAI_API_KEY`/`ANTHROPIC_API_KEY` from the
 * environment: a missing key is sent empty and the provider answers 401.
 *
 * Cost: OpenAI-compatible chunks carrying `usage.cost` (OpenRouter) are captured into provider metadata under
 * `skald.cost`; OpenRouter is also asked to include it (its descriptor's `usage: { include: true }`).
 */
import { hash } from 'node:crypto';
import type { MetadataExtractor } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import type { ProviderKind } from '../../../shared/contract/providers';
import { providerDescriptor } from '../../../shared/providers/registry';
import { RecentMap } from '../../../shared/recent-map';
import { loadWire } from './ai-sdk';

export type FetchFunction = typeof globalThis.fetch;

export interface ModelEndpoint {
  providerKind: ProviderKind;
  providerName: string;
  baseUrl: string;
  modelId: string;
}

/** Provider metadata key our extractor writes to. */
export const COST_METADATA_KEY = 'skald';

function reportedCost(chunk: unknown): number | undefined {
  if (chunk === null || typeof chunk !== 'object') return undefined;
  const usage = (chunk as { usage?: unknown }).usage;
  if (usage === null || typeof usage !== 'object') return undefined;
  const cost = (usage as { cost?: unknown }).cost;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : undefined;
}

const costExtractor: MetadataExtractor = {
  extractMetadata: async ({ parsedBody }) => {
    const cost = reportedCost(parsedBody);
    return cost === undefined ? undefined : { [COST_METADATA_KEY]: { cost } };
  },
  createStreamExtractor: () => {
    let cost: number | undefined;
    return {
      processChunk(chunk) {
        cost = reportedCost(chunk) ?? cost;
      },
      buildMetadata: () => (cost === undefined ? undefined : { [COST_METADATA_KEY]: { cost } }),
    };
  },
};

/** The model's client, built by its kind's wire (docs/providers.md); the wire's package is imported on first use (llm/ai-sdk.ts). */
export async function languageModelFor(
  endpoint: ModelEndpoint,
  apiKey: string | null,
  fetchImpl?: FetchFunction,
): Promise<LanguageModel> {
  const descriptor = providerDescriptor(endpoint.providerKind);
  const common = { baseURL: endpoint.baseUrl, ...(fetchImpl ? { fetch: fetchImpl } : {}) };
  const provider = await loadWire(descriptor.wire);
  switch (provider.wire) {
    case 'openai-chat':
      return provider.create({ ...common, apiKey: apiKey ?? '' }).chat(endpoint.modelId);
    case 'anthropic-messages':
      return provider.create({ ...common, apiKey: apiKey ?? '' })(endpoint.modelId);
    case 'openai-compatible': {
      const extras = descriptor.requestBodyExtras;
      return provider
        .create({
          ...common,
          // The name keys the kind's own `providerOptions` (its reasoning form: shared/providers/openrouter.ts).
          name: descriptor.kind,
          ...(apiKey ? { apiKey } : {}),
          includeUsage: true,
          metadataExtractor: costExtractor,
          ...(extras
            ? { transformRequestBody: (body: Record<string, unknown>) => ({ ...body, ...structuredClone(extras) }) }
            : {}),
        })
        .chatModel(endpoint.modelId);
    }
  }
}

/** How many endpoints' models a client keeps (a person switches among a few; a fallback chain is at most three). */
const KEPT_MODELS = 8;

/**
 * A client's language models, built once per endpoint and key and kept between rounds (docs/architecture.md "What
 * keeps the waited-on paths fast"). A model is only its configuration, safe to share among rounds running at once
 * (sub-agents), but building one builds its stream's validation schemas, which zod compiles again on their first
 * use: built per round, that cost about 2 ms of processor time a round and most of the client's garbage. The key
 * holds a digest of the API key, not the key: a key changed in Settings builds a new model. A build that failed is
 * not kept.
 */
export class LanguageModels {
  private readonly built = new RecentMap<string, Promise<LanguageModel>>(KEPT_MODELS);

  constructor(private readonly fetchImpl?: FetchFunction) {}

  get(endpoint: ModelEndpoint, apiKey: string | null): Promise<LanguageModel> {
    const keyDigest = apiKey === null ? null : hash('sha256', apiKey, 'base64');
    const key = JSON.stringify([
      endpoint.providerKind,
      endpoint.providerName,
      endpoint.baseUrl,
      endpoint.modelId,
      keyDigest,
    ]);
    const kept = this.built.get(key);
    if (kept) return kept;
    const model = languageModelFor(endpoint, apiKey, this.fetchImpl);
    this.built.set(key, model);
    model.catch(() => {
      if (this.built.get(key) === model) this.built.delete(key);
    });
    return model;
  }
}

/** The cost a provider reported for the step, if any (see `costExtractor`). */
export function costFromMetadata(metadata: unknown): number | null {
  if (metadata === null || typeof metadata !== 'object') return null;
  const entry = (metadata as Record<string, unknown>)[COST_METADATA_KEY];
  if (entry === null || typeof entry !== 'object') return null;
  const cost = (entry as { cost?: unknown }).cost;
  return typeof cost === 'number' ? cost : null;
}

/**
 * Handlers of the `providers:*` and `models:*` calls: thin adapters over the provider repository. API keys only
 * go in (`providers:create`, `providers:setKey`); every answer carries `hasKey`, never the key. Model views add the
 * in-memory health of the LLM client.
 */
import { BridgeError } from '../../../shared/contract/define';
import type { ModelView } from '../../../shared/contract/providers';
import { providerDescriptor } from '../../../shared/providers/registry';
import type { FetchFunction } from '../llm/provider-factory';
import { discoverLocalProviders, probeProvider } from '../llm/provider-probe';
import type { ModelHealth } from '../llm/model-health';
import type { ModelRecord, ProviderRepository } from '../llm/provider-repository';
import type { BridgeHandlers } from './handlers';

type ProviderChannels =
  | 'providers:list'
  | 'providers:create'
  | 'providers:update'
  | 'providers:delete'
  | 'providers:setKey'
  | 'providers:test'
  | 'providers:probe'
  | 'providers:discoverLocal'
  | 'models:list'
  | 'models:create'
  | 'models:update'
  | 'models:delete'
  | 'models:reorder';

export interface ProviderHandlerDeps {
  providers: ProviderRepository;
  health: ModelHealth;
  /** Tests only: where "test connection" and discovery send their requests. */
  fetch?: FetchFunction;
  /** Tests only: other addresses for the local servers than their default ports. */
  localBaseUrls?: Partial<Record<string, string>>;
}

export function createProviderHandlers({
  providers,
  health,
  fetch,
  localBaseUrls,
}: ProviderHandlerDeps): Pick<BridgeHandlers, ProviderChannels> {
  const view = (m: ModelRecord): ModelView => ({
    id: m.id,
    providerId: m.providerId,
    providerName: m.providerName,
    modelId: m.modelId,
    displayName: m.displayName,
    priority: m.priority,
    inputPricePerM: m.inputPricePerM,
    outputPricePerM: m.outputPricePerM,
    contextWindow: m.contextWindow,
    reasoning: m.reasoning,
    enabled: m.enabled,
    health: health.view(m.id),
  });
  return {
    'providers:list': () => ({ providers: providers.listProviders() }),
    'providers:create': (request) => ({ provider: providers.createProvider(request) }),
    'providers:update': (request) => ({ provider: providers.updateProvider(request) }),
    'providers:delete': ({ id }) => {
      providers.deleteProvider(id);
      return { ok: true as const };
    },
    'providers:setKey': (request) => ({ provider: providers.setProviderKey(request) }),
    'providers:test': ({ id }) => {
      const p = providers.getProvider(id);
      return probeProvider({ kind: p.kind, baseUrl: p.baseUrl, apiKey: providers.apiKey(id) }, { fetch });
    },
    'providers:probe': ({ kind, baseUrl, apiKey }) => {
      const url = baseUrl ?? providerDescriptor(kind).defaultBaseUrl;
      if (!url) throw new BridgeError('invalid_input', 'This kind of provider needs a base URL.');
      return probeProvider({ kind, baseUrl: url, apiKey: apiKey ?? null }, { fetch });
    },
    'providers:discoverLocal': async () => ({
      found: await discoverLocalProviders({ fetch, baseUrls: localBaseUrls }),
    }),
    'models:list': () => ({ models: providers.listModels().map(view) }),
    'models:create': (request) => ({ model: view(providers.createModel(request)) }),
    'models:update': (request) => ({ model: view(providers.updateModel(request)) }),
    'models:delete': ({ id }) => {
      providers.deleteModel(id);
      return { ok: true as const };
    },
    'models:reorder': (request) => ({ models: providers.reorderModels(request).map(view) }),
  };
}

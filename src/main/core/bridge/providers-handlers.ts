/**
 * Handlers of the `providers:*` and `models:*` calls: thin adapters over the provider repository. API keys only
 * go in (`providers:create`, `providers:setKey`); every answer carries `hasKey`, never the key. Model views add the
 * in-memory health of the LLM client.
 */
import type { ModelView } from '../../../shared/contract/providers';
import type { ModelHealth } from '../llm/model-health';
import type { ModelRecord, ProviderRepository } from '../llm/provider-repository';
import type { BridgeHandlers } from './handlers';

type ProviderChannels =
  | 'providers:list'
  | 'providers:create'
  | 'providers:update'
  | 'providers:delete'
  | 'providers:setKey'
  | 'models:list'
  | 'models:create'
  | 'models:update'
  | 'models:delete'
  | 'models:reorder';

export interface ProviderHandlerDeps {
  providers: ProviderRepository;
  health: ModelHealth;
}

export function createProviderHandlers({ providers, health }: ProviderHandlerDeps): Pick<BridgeHandlers, ProviderChannels> {
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
    enabled: m.enabled,
    health: health.state(m.id),
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

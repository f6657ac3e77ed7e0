/**
 * Builds the LLM domain for the composition root: the provider repository (keys in the given secret store),
 * the in-memory model health, the streaming client and the slash-command catalog, sharing one health record.
 */
import type { Db } from '../db/database';
import type { SecretStore } from '../secrets/secret-store';
import { LlmClient, type LlmClientOptions } from './llm-client';
import { ModelCatalog } from './model-catalog';
import { ModelHealth } from './model-health';
import { ProviderRepository } from './provider-repository';

export interface LlmServices {
  providers: ProviderRepository;
  health: ModelHealth;
  /** A `ModelPort` for the turn loop. */
  client: LlmClient;
  /** A `ModelCatalogPort` for `/models` and `/model`. */
  catalog: ModelCatalog;
}

export function createLlmServices(
  options: { db: Db; secrets: SecretStore } & Pick<LlmClientOptions, 'onEvent' | 'fetch' | 'log' | 'maxTries'>,
): LlmServices {
  const { db, secrets, ...clientOptions } = options;
  const providers = new ProviderRepository(db, secrets);
  const health = new ModelHealth();
  return {
    providers,
    health,
    client: new LlmClient({ ...clientOptions, models: providers, health }),
    catalog: new ModelCatalog(providers, health),
  };
}

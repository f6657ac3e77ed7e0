/** The LLM domain: provider/model configuration, the streaming client with fallback, and the model catalog. */
export * from './errors';
export * from './llm-client';
export * from './messages';
export * from './model-catalog';
export * from './model-health';
export * from './provider-factory';
export * from './provider-repository';
export * from './types';
export * from './services';

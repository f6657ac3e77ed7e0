/**
 * The AI SDK and its provider packages, imported on the first model request rather than at the app's start
 * (docs/performance.md "Performance targets": heavy modules load when first used). Each import happens once and
 * is shared; a failed import is retried by the next request.
 */
import type { ProviderKind } from '../../../shared/contract/providers';

type AiSdk = typeof import('ai');
let sdk: AiSdk | null = null;
let loading: Promise<AiSdk> | null = null;

export function loadAiSdk(): Promise<AiSdk> {
  if (!loading) {
    loading = import('ai').then((module) => (sdk = module));
    loading.catch(() => (loading = null));
  }
  return loading;
}

/** The SDK once a request has loaded it; null before (then no error can have come from it). */
export function loadedAiSdk(): AiSdk | null {
  return sdk;
}

/** The provider package a kind of endpoint is reached through (docs/architecture.md "Models and fallback"). */
export function loadProvider(kind: ProviderKind) {
  switch (kind) {
    case 'open_ai':
      return import('@ai-sdk/openai').then((m) => ({ kind: 'openai' as const, createOpenAI: m.createOpenAI }));
    case 'anthropic':
      return import('@ai-sdk/anthropic').then((m) => ({
        kind: 'anthropic' as const,
        createAnthropic: m.createAnthropic,
      }));
    default:
      return import('@ai-sdk/openai-compatible').then((m) => ({
        kind: 'compatible' as const,
        createOpenAICompatible: m.createOpenAICompatible,
      }));
  }
}

/**
 * The AI SDK and its provider packages, imported on the first model request rather than at the app's start
 * (docs/performance.md "Performance targets": heavy modules load when first used). Each import happens once and
 * is shared; a failed import is retried by the next request.
 */
import type { Wire } from '../../../shared/providers/descriptor';
import { findProviderDescriptor } from '../../../shared/providers/registry';

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

/** Each wire's provider package (docs/providers.md): an exhaustive map, so a new wire that loads nothing fails to compile. */
const WIRE_PACKAGES = {
  'openai-chat': () => import('@ai-sdk/openai').then((m) => ({ wire: 'openai-chat' as const, create: m.createOpenAI })),
  'anthropic-messages': () =>
    import('@ai-sdk/anthropic').then((m) => ({ wire: 'anthropic-messages' as const, create: m.createAnthropic })),
  'openai-compatible': () =>
    import('@ai-sdk/openai-compatible').then((m) => ({
      wire: 'openai-compatible' as const,
      create: m.createOpenAICompatible,
    })),
};
// Every wire has its package: a wire added to `WIRES` without one fails to compile here.
const everyWireLoads: Record<Wire, unknown> = WIRE_PACKAGES;
void everyWireLoads;

export type WirePackage = Awaited<ReturnType<(typeof WIRE_PACKAGES)[Wire]>>;

/** The provider package a wire is reached through. */
export function loadWire(wire: Wire): Promise<WirePackage> {
  return WIRE_PACKAGES[wire]();
}

/** The provider package of a kind's wire (the warm-up loads those of the configured models); none for an unknown kind. */
export async function loadProvider(kind: string): Promise<WirePackage | null> {
  const descriptor = findProviderDescriptor(kind);
  return descriptor ? loadWire(descriptor.wire) : null;
}

/**
 * How each provider kind is shown and which fields its form asks for (docs/ui.md): names a person reads instead
 * of `open_ai` / `openai_compatible`, whether a key is needed, whether the address is the person's to give.
 */
import type { ProviderKind } from '../../../../shared/contract/providers';
import type { ProviderDescriptor } from '../../../../shared/providers/descriptor';
import { findProviderDescriptor, PROVIDER_KINDS } from '../../../../shared/providers/registry';

/** What the form and the lists read of a kind: its descriptor's fields for people (shared/providers/). */
export type KindInfo = Pick<ProviderDescriptor, 'label' | 'hint' | 'key' | 'baseUrl' | 'keyHint' | 'modelHint'>;

/**
 * A kind this version does not know (a provider stored by a newer Skald): shown by its stored name, its fields kept
 * editable; its models fail with a clear error in the chat.
 */
const unknownKind = (kind: string): KindInfo => ({
  label: kind,
  hint: 'A kind this version of Skald does not know',
  key: 'optional',
  baseUrl: 'required',
  modelHint: 'the model id',
});

export const kindInfo = (kind: ProviderKind): KindInfo => findProviderDescriptor(kind) ?? unknownKind(kind);
export const isKnownKind = (kind: ProviderKind): boolean => findProviderDescriptor(kind) !== undefined;

/** The order of the kind picker: the list's (the common cloud providers, then local, then the generic one). */
export const KIND_ORDER: readonly ProviderKind[] = PROVIDER_KINDS;

/** The kind a form starts with, before a local server is found: the picker's first. */
export const FIRST_KIND: ProviderKind = KIND_ORDER[0] ?? '';

export const kindLabel = (kind: ProviderKind) => kindInfo(kind).label;

export const defaultBaseUrl = (kind: ProviderKind) => findProviderDescriptor(kind)?.defaultBaseUrl ?? '';

export interface ProviderDraft {
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  apiKey: string;
}

export const draftForKind = (kind: ProviderKind): ProviderDraft => ({
  kind,
  name: kindInfo(kind).label,
  baseUrl: defaultBaseUrl(kind),
  apiKey: '',
});

/**
 * The name a provider gets when the person typed none (or kept the kind's own, which the form starts with): the kind,
 * or its host where the address is not the kind's own (the generic kind always), so that "Other (OpenAI-compatible)"
 * twice in Settings reads "api.together.xyz" and "localhost:8000" instead.
 */
export function providerName(d: ProviderDraft): string {
  const info = kindInfo(d.kind);
  const typed = d.name.trim();
  if (typed && typed !== info.label) return typed;
  const url = d.baseUrl.trim();
  if (info.baseUrl !== 'required' && (!url || url === defaultBaseUrl(d.kind))) return info.label;
  try {
    return new URL(url).host || info.label;
  } catch {
    return info.label;
  }
}

/** The create request for a draft: only the fields its kind uses; the default address is left to the core. */
export function createRequest(d: ProviderDraft): {
  kind: ProviderKind;
  name: string;
  baseUrl?: string;
  apiKey?: string;
} {
  const info = kindInfo(d.kind);
  const url = d.baseUrl.trim();
  return {
    kind: d.kind,
    name: providerName(d),
    ...(url && url !== defaultBaseUrl(d.kind) ? { baseUrl: url } : {}),
    ...(info.key !== 'none' && d.apiKey ? { apiKey: d.apiKey } : {}),
  };
}

/**
 * Provider kinds by name, from the one list (`list.ts`). A kind is stored as text (migration 130 dropped the CHECK
 * that listed them), so a stored kind this build does not know (written by a newer Skald, or a kind since removed) is
 * possible: it is an `UnknownProviderKindError` for that provider alone, never for the others.
 */
import type { ProviderDescriptor } from './descriptor';
import { PROVIDER_DESCRIPTORS } from './list';

const byKind = new Map<string, ProviderDescriptor>();
for (const d of PROVIDER_DESCRIPTORS) {
  if (byKind.has(d.kind)) throw new Error(`two provider descriptors share the kind "${d.kind}"`);
  if (!/^[a-z0-9_]{1,64}$/.test(d.kind)) throw new Error(`provider kind "${d.kind}": lower case, digits and _ only`);
  byKind.set(d.kind, d);
}

/** Every known kind, in the picker's order. */
export const PROVIDER_KINDS: readonly string[] = PROVIDER_DESCRIPTORS.map((d) => d.kind);
export const providerDescriptors = (): readonly ProviderDescriptor[] => PROVIDER_DESCRIPTORS;

export class UnknownProviderKindError extends Error {
  constructor(readonly kind: string) {
    super(
      `this version of Skald does not know the provider kind "${kind}" (a newer version may have added it): ` +
        'its models cannot be used; update Skald, or delete the provider in Settings',
    );
    this.name = 'UnknownProviderKindError';
  }
}

export const isKnownProviderKind = (kind: string): boolean => byKind.has(kind);

/** The kind's descriptor, or undefined when this build does not know it. */
export const findProviderDescriptor = (kind: string): ProviderDescriptor | undefined => byKind.get(kind);

/** The kind's descriptor; an unknown kind throws `UnknownProviderKindError`. */
export function providerDescriptor(kind: string): ProviderDescriptor {
  const found = byKind.get(kind);
  if (!found) throw new UnknownProviderKindError(kind);
  return found;
}

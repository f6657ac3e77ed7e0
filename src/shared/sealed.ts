/**
 * The sealed form of a secret tool argument (docs/plugins.md, "Secret arguments"): `{"$sealed": "<base64>"}`. The
 * core makes it; the renderer only recognizes it to show a mask instead of ciphertext.
 */
export const SEALED_KEY = '$sealed';
export const MASK = '•••••••• (secret, hidden)';

export function isSealedValue(value: unknown): value is { [SEALED_KEY]: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && typeof (value as Record<string, unknown>)[SEALED_KEY] === 'string';
}

/** Pretty JSON of a call's arguments with every sealed value shown as a mask. */
export function maskSealedJson(raw: string, indent = 2): string {
  try {
    return JSON.stringify(JSON.parse(raw, (_k, v: unknown) => (isSealedValue(v) ? MASK : v)), null, indent);
  } catch {
    return raw;
  }
}

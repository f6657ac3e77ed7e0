/**
 * The sealed form of a secret tool argument (docs/plugins.md, "Secret arguments"): `{"$sealed": "<base64>"}`. The
 * core makes it; the renderer only recognizes it to show a mask instead of ciphertext, or, after the person's
 * explicit reveal (docs/plugins.md "Revealing a secret argument"), the opened value the core sent back for it.
 */
export const SEALED_KEY = '$sealed';
export const MASK = '•••••••• (secret, hidden)';

export function isSealedValue(value: unknown): value is { [SEALED_KEY]: string } {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    typeof (value as Record<string, unknown>)[SEALED_KEY] === 'string'
  );
}

/** One opened secret argument: where it sits in the call's arguments, and its plain text. */
export interface RevealedArgument {
  path: readonly string[];
  value: string;
}

/** Whether a call's JSON arguments hold a sealed value anywhere. */
export function hasSealedValue(raw: string): boolean {
  if (!raw.includes(SEALED_KEY)) return false;
  let found = false;
  try {
    JSON.parse(raw, (_k, v: unknown) => {
      if (isSealedValue(v)) found = true;
      return v;
    });
  } catch {
    return false;
  }
  return found;
}

/** Puts `value` where `path` points in `root`, only over a sealed value (never anywhere else). */
function openAt(root: unknown, path: readonly string[], value: string): void {
  let at = root;
  for (const [i, key] of path.entries()) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, key)) return;
    const record = at as Record<string, unknown>;
    if (i === path.length - 1) {
      if (isSealedValue(record[key])) record[key] = value;
      return;
    }
    at = record[key];
  }
}

/** Pretty JSON of a call's arguments: the revealed values in place, every other sealed value as the mask. */
export function showSealedJson(raw: string, revealed: readonly RevealedArgument[] = [], indent = 2): string {
  try {
    const args: unknown = JSON.parse(raw);
    for (const r of revealed) openAt(args, r.path, r.value);
    return JSON.stringify(args, (_k, v: unknown) => (isSealedValue(v) ? MASK : v), indent);
  } catch {
    return raw;
  }
}

/** Pretty JSON of a call's arguments with every sealed value shown as a mask. */
export function maskSealedJson(raw: string, indent = 2): string {
  return showSealedJson(raw, [], indent);
}

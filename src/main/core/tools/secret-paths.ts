/**
 * Where a tool's secret arguments are when it cannot name them all (docs/plugins.md "Secret arguments"): a tool that
 * may carry secrets declares every field it cannot prove public, and secrets/sealed-args.ts seals what sits there.
 */
import { isSealedValue as isSealed } from '../../../shared/sealed';

/** An object or array that a path may step into (an array by its index, as a string). */
export const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] =>
  typeof v === 'object' && v !== null;

/**
 * The paths of every string under `value` (through objects and arrays), and of every value sealed already: what a
 * tool that may carry secrets seals when it cannot prove a field public (docs/plugins.md "Secret arguments").
 * `except`: the keys of `value` itself proven public (a known plugin's plain settings). `at`: where `value` sits.
 */
export function unprovenPaths(value: unknown, except: readonly string[], at: readonly string[] = []): string[][] {
  const out: string[][] = [];
  const walk = (v: unknown, path: string[]) => {
    if (typeof v === 'string' || isSealed(v)) out.push(path);
    else if (isContainer(v)) for (const [key, child] of Object.entries(v)) walk(child, [...path, key]);
  };
  if (!isContainer(value) || Array.isArray(value)) return out;
  for (const [key, child] of Object.entries(value)) if (!except.includes(key)) walk(child, [...at, key]);
  return out;
}
